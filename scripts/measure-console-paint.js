#!/usr/bin/env node
/**
 * Measures, in Chromium with a cold cache, the time from navigation to
 *   - the first contentful paint of /login (signed out), and
 *   - the log table of /log showing 100 rows (signed in as root).
 * Needs a built server (`npm run build`). Starts dist/src/main.js on a scratch SQLite database and a free port,
 * seeds 100 consume rows directly, and prints both figures (median of RUNS runs, each in a fresh browser context).
 * Usage: node scripts/measure-console-paint.js [runs]
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.argv[2] ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT_USER = { username: 'root', password: '12345678' };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

async function startServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-paint-'));
  const port = await freePort();
  const dbPath = path.join(dir, 'db.sqlite');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SQLITE_PATH: dbPath, SESSION_SECRET: 'paint-secret', WEB_DIST_DIR: path.join(ROOT, 'web', 'dist'), NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(`${baseUrl}/api/status`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { baseUrl, dbPath, stop };
}

/** Runs setup and inserts `count` consume rows for the root user (id 1). */
async function seed(baseUrl, dbPath, count) {
  const setup = await fetch(`${baseUrl}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: ROOT_USER.username, password: ROOT_USER.password, confirmPassword: ROOT_USER.password, SelfUseModeEnabled: false, DemoSiteEnabled: false }),
  });
  if (!(await setup.json()).success) throw new Error('setup failed');
  const Database = require('better-sqlite3');
  const db = new Database(dbPath);
  const now = Math.floor(Date.now() / 1000);
  const insert = db.prepare(
    `INSERT INTO logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, channel_name, "group", ip, other)
     VALUES (1, ?, 2, 'model ratio 1', 'root', 'paint', 1, 'gpt-4o-mini', 1500, 100, 200, 2, 0, 1, 'paint-channel', 'default', '', '{}')`,
  );
  for (let i = 0; i < count; i += 1) insert.run(now - i);
  db.close();
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    await seed(server.baseUrl, server.dbPath, 100);
    const loginPaints = [];
    const logTables = [];
    for (let run = 0; run < RUNS; run += 1) {
      // A fresh context has an empty HTTP cache: every run is a cold load.
      const signedOut = await browser.newContext({ baseURL: server.baseUrl });
      const loginPage = await signedOut.newPage();
      await loginPage.goto('/login', { waitUntil: 'load' });
      await loginPage.locator('input[name="username"]').waitFor();
      loginPaints.push(
        await loginPage.evaluate(
          () => new Promise((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntries().find((item) => item.name === 'first-contentful-paint');
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
          }),
        ),
      );
      await signedOut.close();

      const signedIn = await browser.newContext({ baseURL: server.baseUrl });
      const login = await signedIn.request.post('/api/user/login', { data: ROOT_USER });
      const session = await login.json();
      if (!session.success) throw new Error('login failed');
      // The console keeps the signed-in user in localStorage (key `user`), as the login form would.
      await signedIn.addInitScript((user) => {
        localStorage.setItem('user', JSON.stringify(user));
        localStorage.setItem('page-size', '100');
      }, session.data);
      const page = await signedIn.newPage();
      await page.goto('/log', { waitUntil: 'commit' });
      // The table counts as shown once its first screenful of seeded rows is in the document; a virtualised body
      // renders only those, a plain one renders all 100, so the same condition serves before and after.
      const shown = await page.waitForFunction(
        () => {
          const rows = [...document.querySelectorAll('tbody tr')].filter((row) => row.textContent.includes('gpt-4o-mini'));
          return rows.length >= 10 ? performance.now() : false;
        },
        undefined,
        { timeout: 30000, polling: 'raf' },
      );
      logTables.push(await shown.jsonValue());
      await signedIn.close();
    }
    console.log(`/login first contentful paint: median ${median(loginPaints).toFixed(0)} ms (runs: ${loginPaints.map((v) => v.toFixed(0)).join(', ')})`);
    console.log(`/log table with 100 rows shown: median ${median(logTables).toFixed(0)} ms (runs: ${logTables.map((v) => v.toFixed(0)).join(', ')})`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
