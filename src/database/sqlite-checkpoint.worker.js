'use strict';
/*
 * Copies SQLite's write-ahead log into the database file off the main event loop, on a
 * connection of its own (see SqliteCheckpointerService). Plain CommonJS, so the same file runs
 * under the tests and from dist/ (copied there as a Nest asset).
 *
 * workerData: { path }. Message in: 'checkpoint' or 'close'. Message out: { ok: true } or { ok: false, error }.
 */
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

const db = new Database(workerData.path, { fileMustExist: true });
// This connection never writes; a checkpoint of its own would only ever come from a write.
db.pragma('wal_autocheckpoint = 0');

parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    // PASSIVE: copies what it can without waiting for, or blocking, the relay's writes.
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
