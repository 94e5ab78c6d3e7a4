import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Agent, fetch } from 'undici';
import { createGatewayApp, GatewayApp } from '../src/app.factory';
import { loadAppConfig } from '../src/config/app-config';

/**
 * `npm run bench:logs`: the log and dashboard queries on a big log table, on SQLite and on
 * MySQL/MariaDB (when BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306, answers).
 * Seeds LOG_BENCH_ROWS consume rows (default 5,000,000) over 90 days for 2,000 users and 200
 * models, times every query through HTTP (p50 of 20 runs; 5 for one slower than 2 s), then clears the oldest 1,000,000
 * rows (a fifth of the seed when smaller) while relay requests keep flowing, and reports the
 * longest relay request during the clearing. The last line printed is JSON.
 */

const ROWS = Number(process.env.LOG_BENCH_ROWS ?? 5_000_000);
const USERS = 2000;
const MODELS = 200;
const DAYS = 90;
const RUNS = 20;
const TARGET_MS = 300;
const CLEAR_ROWS = Math.min(1_000_000, Math.floor(ROWS / 5));
const SEED_CHUNK = 1000;
const DAY = 86_400;
const BENCH_USER = { username: 'benchuser', password: 'bench-pass-1' };

type Figures = Record<string, number>;

/** The client's connections; replaced after seeding, which leaves them idle (or the server's event loop blocked) for minutes. */
let dispatcher = new Agent({ keepAliveTimeout: 5_000 });

async function freshConnections(): Promise<void> {
  const previous = dispatcher;
  dispatcher = new Agent({ keepAliveTimeout: 5_000 });
  await previous.destroy();
}

/** A heavy-tailed pick in [0, size): a few users and models carry most traffic, as in real gateways. */
function skewed(size: number): number {
  return Math.min(size - 1, Math.floor(size * Math.pow(Math.random(), 2.2)));
}

interface Session {
  cookie: string;
  userId: number;
}

async function call(baseUrl: string, session: Session | null, method: string, pathname: string, body?: unknown): Promise<{ status: number; json: { success: boolean; message: string; data: unknown } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) Object.assign(headers, { cookie: session.cookie, 'new-api-user': String(session.userId) });
  const response = await fetch(baseUrl + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
  return { status: response.status, json: (await response.json()) as { success: boolean; message: string; data: unknown } };
}

async function login(baseUrl: string, username: string, password: string): Promise<Session> {
  const response = await fetch(`${baseUrl}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }), dispatcher });
  const json = (await response.json()) as { success: boolean; message: string; data: { id: number } };
  if (!json.success) throw new Error(`login ${username}: ${json.message}`);
  const cookie = response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  return { cookie, userId: json.data.id };
}

/** A tiny OpenAI-shaped upstream for the relay requests that run during log clearing. */
function startUpstream(): Promise<{ url: string; close(): void }> {
  const answer = JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'bench-model', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

async function seedLogs(dataSource: DataSource, benchUserId: number, now: number): Promise<void> {
  const start = now - DAYS * DAY;
  const columns = ['user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'token_id', 'model_name', 'quota', 'prompt_tokens', 'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'channel_name', 'group', 'ip', 'other'];
  const quoted = columns.map((column) => dataSource.driver.escape(column)).join(', ');
  const rowPlaceholders = `(${columns.map(() => '?').join(', ')})`;
  const insert = `INSERT INTO logs (${quoted}) VALUES ${new Array(SEED_CHUNK).fill(rowPlaceholders).join(', ')}`;
  const other = JSON.stringify({ frt: 420, model_ratio: 1.5, group_ratio: 1, completion_ratio: 2, admin_info: { use_channel: [3] } });
  const runner = dataSource.createQueryRunner();
  const started = Date.now();
  // Loading is much faster with the indexes built once at the end than kept up row by row.
  const indices = ((await runner.getTable('logs'))?.indices ?? []).map((index) => index.clone());
  for (const index of indices) await runner.dropIndex('logs', index);
  try {
    for (let done = 0; done < ROWS; done += SEED_CHUNK) {
      const parameters: unknown[] = [];
      for (let i = 0; i < SEED_CHUNK; i++) {
        const rank = skewed(USERS);
        const userId = rank === 0 ? benchUserId : 1000 + rank;
        const username = rank === 0 ? BENCH_USER.username : `user${rank}`;
        const model = `model-${skewed(MODELS)}`;
        const prompt = 50 + Math.floor(Math.random() * 2000);
        const completion = Math.floor(Math.random() * 800);
        // Rows arrive in time order, as the relay appends them.
        const createdAt = start + Math.floor(((done + i) / ROWS) * DAYS * DAY);
        const type = Math.random() < 0.98 ? 2 : 1 + Math.floor(Math.random() * 4);
        parameters.push(userId, createdAt, type, '', username, `token-${rank % 7}`, rank * 7 + (rank % 7), model, prompt + completion * 2, prompt, completion, 1 + Math.floor(Math.random() * 30), Math.random() < 0.6 ? 1 : 0, 1 + (rank % 50), `channel-${1 + (rank % 50)}`, rank % 10 === 0 ? 'vip' : 'default', '203.0.113.7', other);
      }
      await runner.query(insert, parameters);
      if ((done / SEED_CHUNK) % 250 === 0) process.stdout.write(`\r  seeded ${done.toLocaleString()} rows (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    for (const index of indices) await runner.createIndex('logs', index);
  } finally {
    await runner.release();
  }
  process.stdout.write(`\r  seeded ${ROWS.toLocaleString()} rows and built ${indices.length} indexes in ${Math.round((Date.now() - started) / 1000)} s\n`);
  // The dashboard's table, as the aggregator would have filled it from the same usage: per user, and for all users (id 0).
  const count = dataSource.driver.escape('count');
  await dataSource.query(
    `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, ${count}, quota)
     SELECT user_id, MIN(username), model_name, created_at - (created_at % 3600), SUM(prompt_tokens + completion_tokens), COUNT(*), SUM(quota)
     FROM logs WHERE type = 2 GROUP BY user_id, model_name, created_at - (created_at % 3600)`,
  );
  await dataSource.query(
    `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, ${count}, quota)
     SELECT 0, '', model_name, created_at, SUM(token_used), SUM(${count}), SUM(quota) FROM quota_data GROUP BY model_name, created_at`,
  );
  // Planner statistics, as a settled database has them: InnoDB samples its own, and the gateway
  // runs SQLite's PRAGMA optimize at start and every few hours (a bulk load outruns both).
  await dataSource.query(dataSource.options.type === 'better-sqlite3' ? 'ANALYZE' : 'ANALYZE TABLE logs, quota_data');
}

/** p50 of RUNS timed runs after one warm-up; a query slower than 2 s gets 5 runs, so one bad query cannot take an hour. */
async function p50(run: () => Promise<void>): Promise<number> {
  const warmUp = performance.now();
  await run();
  const runs = performance.now() - warmUp > 2000 ? 5 : RUNS;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 10) / 10;
}

async function timeQueries(baseUrl: string, admin: Session, self: Session, now: number): Promise<Figures> {
  const dayStart = now - (now % DAY);
  const lastDay = `start_timestamp=${now - DAY}&end_timestamp=${now + 3600}`;
  const page = 'p=1&page_size=20';
  const queries: Record<string, [Session, string]> = {
    'log page': [admin, `/api/log/?${page}`],
    'log page type': [admin, `/api/log/?${page}&type=2`],
    'log page username': [admin, `/api/log/?${page}&username=user5`],
    'log page token_name': [admin, `/api/log/?${page}&token_name=token-3`],
    'log page model_name': [admin, `/api/log/?${page}&model_name=model-17`],
    'log page channel': [admin, `/api/log/?${page}&channel=12`],
    'log page group': [admin, `/api/log/?${page}&group=vip`],
    'log page last day': [admin, `/api/log/?${page}&${lastDay}`],
    'log page combined': [admin, `/api/log/?${page}&type=2&username=user5&model_name=model-1&${lastDay}`],
    'self log page': [self, `/api/log/self/?${page}`],
    'self log page last day': [self, `/api/log/self/?${page}&${lastDay}`],
    'log stat today': [admin, `/api/log/stat?type=2&start_timestamp=${dayStart}&end_timestamp=${now + 3600}`],
    'log stat username': [admin, `/api/log/stat?type=2&username=user5`],
    'self log stat today': [self, `/api/log/self/stat?type=2&start_timestamp=${dayStart}&end_timestamp=${now + 3600}`],
    'data 30 days': [admin, `/api/data/?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}&granularity=day`],
    'data 30 days one user': [admin, `/api/data/?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}&username=user5`],
    'self data 30 days': [self, `/api/data/self/?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`],
  };
  const figures: Figures = {};
  for (const [name, [session, pathname]] of Object.entries(queries)) {
    const check = await call(baseUrl, session, 'GET', pathname);
    if (!check.json.success) throw new Error(`${name}: ${check.json.message}`);
    figures[name] = await p50(async () => void (await call(baseUrl, session, 'GET', pathname)));
    console.log(`  ${name.padEnd(26)} ${String(figures[name]).padStart(8)} ms${figures[name] > TARGET_MS ? '   over target' : ''}`);
  }
  return figures;
}

/** Clears the oldest CLEAR_ROWS rows while relay requests run one after another; answers the slowest of them (ms). */
async function clearUnderTraffic(baseUrl: string, admin: Session, dataSource: DataSource, upstreamUrl: string): Promise<number> {
  // The mock upstream is on loopback, which channels reach only once root allows private addresses.
  const allowed = await call(baseUrl, admin, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
  if (!allowed.json.success) throw new Error(`allow_private_ip: ${allowed.json.message}`);
  const created = await call(baseUrl, admin, 'POST', '/api/channel/', { name: 'bench', type: 1, key: 'sk-bench', base_url: upstreamUrl, models: 'bench-model', group: 'default' });
  if (!created.json.success) throw new Error(`channel: ${created.json.message}`);
  await call(baseUrl, admin, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'bench-model': 1 }) });
  const token = await call(baseUrl, admin, 'POST', '/api/token/', { name: 'bench', remain_quota: 0, unlimited_quota: true });
  if (!token.json.success) throw new Error(`token: ${token.json.message}`);
  const key = (token.json.data as { key: string }[])[0].key;
  const relay = () => fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'hi' }] }), dispatcher }).then((response) => response.text());
  await relay();

  const [{ created_at: cutoff }] = await dataSource.query(`SELECT created_at FROM logs ORDER BY id LIMIT 1 OFFSET ${CLEAR_ROWS}`);
  let clearing = true;
  let slowest = 0;
  const traffic = (async () => {
    while (clearing) {
      const started = performance.now();
      await relay();
      slowest = Math.max(slowest, performance.now() - started);
    }
  })();
  const started = performance.now();
  const cleared = await call(baseUrl, admin, 'DELETE', `/api/log/?target_timestamp=${Number(cutoff)}`);
  const clearMs = performance.now() - started;
  clearing = false;
  await traffic;
  console.log(`  cleared ${String(cleared.json.data)} rows in ${Math.round(clearMs)} ms; slowest relay request meanwhile ${Math.round(slowest)} ms`);
  return Math.round(slowest);
}

async function benchDatabase(kind: 'sqlite' | 'mysql', mysqlUrl: string): Promise<{ figures: Figures; clearBlockMs: number }> {
  console.log(`\n${kind}: ${ROWS.toLocaleString()} log rows, ${USERS} users, ${MODELS} models, ${DAYS} days`);
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-bench-logs-'));
  const databaseName = `gw_bench_logs_${randomBytes(4).toString('hex')}`;
  let env: Record<string, string> = { SQLITE_PATH: path.join(dir, 'bench.db') };
  const mysql = await import('mysql2/promise');
  if (kind === 'mysql') {
    const connection = await mysql.createConnection(mysqlUrl);
    await connection.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.end();
    env = { SQL_DSN: `${mysqlUrl.replace(/\/+$/, '')}/${databaseName}` };
  }
  const config = loadAppConfig({ ...env, SESSION_SECRET: 'bench-logs', DATA_DIR: dir, CRITICAL_RATE_LIMIT: '100000', WEB_DIST_DIR: path.join(dir, 'no-web') });
  let gateway: GatewayApp | undefined;
  const upstream = await startUpstream();
  try {
    gateway = await createGatewayApp(config, ['error']);
    await new Promise<void>((resolve) => gateway!.server.listen(0, '127.0.0.1', () => resolve()));
    const baseUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
    const setup = await call(baseUrl, null, 'POST', '/api/setup', { username: 'root', password: 'root-pass-1', confirmPassword: 'root-pass-1' });
    if (!setup.json.success) throw new Error(`setup: ${setup.json.message}`);
    const admin = await login(baseUrl, 'root', 'root-pass-1');
    const registered = await call(baseUrl, null, 'POST', '/api/user/register', { ...BENCH_USER, password2: BENCH_USER.password });
    if (!registered.json.success) throw new Error(`register: ${registered.json.message}`);
    const self = await login(baseUrl, BENCH_USER.username, BENCH_USER.password);
    const dataSource = gateway.app.get(DataSource);
    const now = Math.floor(Date.now() / 1000);
    await seedLogs(dataSource, self.userId, now);
    await freshConnections();
    const figures = await timeQueries(baseUrl, admin, self, now);
    const clearBlockMs = await clearUnderTraffic(baseUrl, admin, dataSource, upstream.url);
    return { figures, clearBlockMs };
  } finally {
    await gateway?.close();
    upstream.close();
    if (kind === 'mysql') {
      const connection = await mysql.createConnection(mysqlUrl);
      await connection.query(`DROP DATABASE IF EXISTS \`${databaseName}\``);
      await connection.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mysqlReachable(url: string): Promise<boolean> {
  try {
    const mysql = await import('mysql2/promise');
    const connection = await mysql.createConnection(url);
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const mysqlUrl = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
  const result: Record<string, Figures | number> = {};
  const clearBlocks: number[] = [];
  const sqlite = await benchDatabase('sqlite', mysqlUrl);
  result.sqlite = sqlite.figures;
  clearBlocks.push(sqlite.clearBlockMs);
  if (await mysqlReachable(mysqlUrl)) {
    const mysql = await benchDatabase('mysql', mysqlUrl);
    result.mysql = mysql.figures;
    clearBlocks.push(mysql.clearBlockMs);
  } else {
    console.log(`\nmysql: ${mysqlUrl} does not answer; skipped`);
  }
  result.clear_block_ms = Math.max(...clearBlocks);
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
