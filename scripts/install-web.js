// Installs the console's own dependencies (web/ is a separate npm project so its
// toolchain never mixes with the server's). Uses the lockfile when there is one.
const { execSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const webDir = path.join(__dirname, '..', 'web');
if (!existsSync(path.join(webDir, 'package.json'))) process.exit(0);
const command = existsSync(path.join(webDir, 'package-lock.json')) ? 'ci' : 'install';
execSync(`npm ${command} --no-audit --no-fund`, { cwd: webDir, stdio: 'inherit' });
