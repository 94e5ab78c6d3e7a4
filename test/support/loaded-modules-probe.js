/*
 * Preloaded into a child gateway (NODE_OPTIONS=--require …): when the process exits, writes the
 * files of every CommonJS module it loaded to LOADED_MODULES_FILE, so a test can tell what a
 * configuration loads.
 */
const { writeFileSync } = require('node:fs');

process.once('exit', () => {
  if (process.env.LOADED_MODULES_FILE) writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(require.cache)));
});
