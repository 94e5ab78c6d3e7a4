import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { DatabaseType } from '../src/config/app-config';
import { queryAnyDialect } from '../src/database/dialect';
import { LogDatabase } from '../src/database/log-database';
import { UsageAggregatorService } from '../src/modules/data/usage-aggregator.service';
import { SettlementBatcherService } from '../src/modules/billing/settlement-batcher.service';
import { LogOutboxService } from '../src/modules/logs/log-outbox.service';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { call, prepareRelay, startGateway } from './support/child-gateway';
import { MockUpstream } from './support/mock-upstream';
import { parsePrometheusText, sampleValue } from './support/prometheus-text';
import { TcpProxy } from './support/tcp-proxy';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { dataSourceFor, scratchDatabase, startTestApp, type TestApp } from './support/test-app';
import { eventually } from './support/until';

/** Mock usage (12 prompt, 7 completion) at ratio 1, completion ratio 1: 19 quota a call. */
const COST = 19;

type Pair = [main: DatabaseType, logs: DatabaseType];

/**
 * Main and log databases of two kinds: two SQLite files always; with both servers, main on
 * MariaDB and logs on PostgreSQL; with one server, main on it and logs in a SQLite file.
 */
function databasePairs(): Pair[] {
  const pairs: Pair[] = [['sqlite', 'sqlite']];
  const mysql = Boolean(process.env.TEST_MYSQL_URL);
  const postgres = Boolean(process.env.TEST_PG_URL);
  if (mysql && postgres) pairs.push(['mysql', 'postgres']);
  else if (mysql) pairs.push(['mysql', 'sqlite']);
  else if (postgres) pairs.push(['postgres', 'sqlite']);
  return pairs;
}

type Scratch = Awaited<ReturnType<typeof scratchDatabase>>;

/** LOG_SQL_DSN for a scratch database: its server DSN, or its SQLite file's path. */
function logDsnOf(scratch: Scratch): string {
  return scratch.env.SQL_DSN ?? scratch.env.SQLITE_PATH;
}

/** A raw statement with `?` placeholders on whichever kind `source` is. */
function rows<Row = Record<string, unknown>>(source: DataSource, sql: string, parameters: unknown[] = []): Promise<Row[]> {
  return queryAnyDialect<Row>(source, sql, parameters);
}

async function count(source: DataSource, sql: string, parameters: unknown[] = []): Promise<number> {
  const [row] = await rows<{ n: number | string }>(source, sql, parameters);
  return Number(row.n);
}

/**
 * Holds the log database's `logs` table against writes from a second connection, as a log
 * database that stopped answering would: the balance commits, the copy cannot.
 */
async function lockLogTable(type: DatabaseType, scratch: Scratch): Promise<{ release(): Promise<void> }> {
  if (type === 'sqlite') {
    const Database = require('better-sqlite3') as new (file: string) => { exec(sql: string): void; close(): void };
    const db = new Database(scratch.env.SQLITE_PATH);
    db.exec('BEGIN IMMEDIATE');
    return {
      release: async () => {
        db.exec('ROLLBACK');
        db.close();
      },
    };
  }
  if (type === 'postgres') {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: scratch.env.SQL_DSN });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE logs IN EXCLUSIVE MODE');
    return {
      release: async () => {
        await client.query('ROLLBACK');
        await client.end();
      },
    };
  }
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection(scratch.env.SQL_DSN);
  await connection.query('LOCK TABLES logs WRITE');
  return {
    release: async () => {
      await connection.query('UNLOCK TABLES');
      await connection.end();
    },
  };
}

/** One chat call to a child gateway; answers the HTTP status. */
async function chatCall(baseUrl: string, apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'crash-model', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe.each(databasePairs())('a separate log database (LOG_SQL_DSN): main on %s, logs on %s', (mainType, logType) => {
  describe('in one process', () => {
    let upstream: MockUpstream;
    let logScratch: Scratch;
    let app: TestApp;
    let seed: RelaySeed;
    let root: Session;
    let main: DataSource;
    let logs: DataSource;

    beforeAll(async () => {
      upstream = await new MockUpstream().start();
      logScratch = await scratchDatabase(logType);
      app = await startTestApp({ LOG_SQL_DSN: logDsnOf(logScratch) }, { databaseType: mainType });
      seed = new RelaySeed(app);
      main = app.app.get(DataSource);
      logs = app.app.get(LogDatabase).dataSource;
      root = await setupRoot(app);
      await seed.setOption('ModelRatio', JSON.stringify({ 'logdb-model': 1 }));
      await seed.setOption('CompletionRatio', JSON.stringify({ 'logdb-model': 1 }));
      await seed.setOption('PreConsumedQuota', 0);
      await seed.setOption('DataExportEnabled', true);
      await seed.createChannel({ base_url: upstream.url, models: 'logdb-model' });
    });
    afterAll(async () => {
      await app?.stop();
      await logScratch?.drop();
      await upstream?.stop();
    });

    it('bills relay calls in the main database and writes their log rows, the admin top-up with its audit reference and the rollups in the log database', async () => {
      expect(app.app.get(LogDatabase).separate).toBe(true);
      const user = await registerUser(app, 'logdb-user');
      await seed.setUserQuota(user.id, 1_000_000);
      const token = await seed.createToken(user.id, { remain_quota: 500_000 });
      const client = openaiClient(app, token.apiKey);
      const calls = 12;
      await Promise.all(Array.from({ length: calls }, () => client.chat.completions.create({ model: 'logdb-model', messages: [{ role: 'user', content: 'hi' }] })));
      const loaded = (await root.get(`/api/user/${user.id}`)).body.data.quota as number;
      expect((await root.put('/api/user/', { id: user.id, quota: loaded + 5_000, original_quota: loaded })).body.success).toBe(true);
      await seed.flush();
      await app.app.get(UsageAggregatorService).flush();

      const consumed = await seed.consumeLogs({ userId: user.id });
      expect(consumed).toHaveLength(calls);
      expect(consumed.every((log) => log.quota === COST && Number(log.token_id) === token.id)).toBe(true);
      expect((await seed.userQuota(user.id)).quota).toBe(1_000_000 - calls * COST + 5_000);
      expect((await seed.tokenQuota(token.id)).remain_quota).toBe(500_000 - calls * COST);
      // The ledger's invariant, read across the two databases: the balance moved by exactly what the log rows say.
      const movements = await rows<{ type: number | string; quota: number | string }>(logs, 'SELECT type, quota FROM logs WHERE user_id = ?', [user.id]);
      expect(movements.reduce((sum, row) => sum + (Number(row.type) === 2 ? -Number(row.quota) : Number(row.quota)), 0)).toBe(5_000 - calls * COST);
      // Nothing in the main database's own log tables, and nothing left in its outbox.
      expect(await count(main, 'SELECT COUNT(*) AS n FROM logs')).toBe(0);
      expect(await count(main, 'SELECT COUNT(*) AS n FROM quota_data')).toBe(0);
      expect(await count(main, 'SELECT COUNT(*) AS n FROM log_outbox')).toBe(0);

      // The audit row of the admin's change names the log row by the id it has in the log database.
      const [audit] = await rows<{ log_id: number | string }>(main, "SELECT log_id FROM audit_logs WHERE entity = 'user' AND entity_id = ? ORDER BY id DESC", [String(user.id)]);
      const [manage] = await rows<{ type: number | string; quota: number | string }>(logs, 'SELECT type, quota FROM logs WHERE id = ?', [Number(audit.log_id)]);
      expect([Number(manage.type), Number(manage.quota)]).toEqual([3, 5_000]);

      // The log pages, the statistics and the dashboard read the log database.
      const page = (await user.get('/api/log/self?p=1&page_size=50')).body.data as { items: Array<{ type: number; quota: number }> };
      expect(page.items.filter((item) => item.type === 2)).toHaveLength(calls);
      const stat = (await root.get(`/api/log/stat?username=${user.username}`)).body.data as { quota: number };
      expect(stat.quota).toBe(calls * COST);
      const dashboard = (await root.get(`/api/data/?username=${user.username}`)).body.data as Array<{ model_name: string; count: number; quota: number }>;
      expect(dashboard).toEqual([expect.objectContaining({ model_name: 'logdb-model', count: calls, quota: calls * COST })]);
      // By day over whole days: the daily rollups, in the log database too.
      const today = Math.floor(Date.now() / 1000 / 86_400) * 86_400;
      const byDay = await root.get('/api/data/').query({ username: user.username, granularity: 'day', start_timestamp: today - 86_400, end_timestamp: today + 86_399 });
      expect(byDay.body.data).toEqual([expect.objectContaining({ model_name: 'logdb-model', count: calls, quota: calls * COST })]);
      expect(await count(main, 'SELECT COUNT(*) AS n FROM quota_data_daily')).toBe(0);
    });

    it('copies a replayed outbox exactly once: rows already in the log database are skipped, missing ones written', async () => {
      const token = await seed.createToken(root.id, { remain_quota: 0, unlimited_quota: true });
      for (let index = 0; index < 4; index++) await openaiClient(app, token.apiKey).chat.completions.create({ model: 'logdb-model', messages: [{ role: 'user', content: 'hi' }] });
      await seed.flush();
      const copied = await rows<Record<string, unknown>>(logs, 'SELECT * FROM logs ORDER BY id');
      expect(copied.length).toBeGreaterThanOrEqual(4);
      // As if a crash had struck after the copy committed but before the outbox rows were deleted, and
      // the log database had lost the newer half of them besides: the whole outbox comes back.
      const half = copied.slice(Math.ceil(copied.length / 2));
      await rows(logs, `DELETE FROM logs WHERE id IN (${half.map(() => '?').join(', ')})`, half.map((row) => Number(row.id)));
      for (const row of copied) {
        const { id, ...columns } = row;
        const payload = { ...columns, is_stream: Boolean(Number(columns.is_stream)), created_at: Number(columns.created_at), quota: Number(columns.quota) };
        await rows(main, 'INSERT INTO log_outbox (id, payload) VALUES (?, ?)', [Number(id), JSON.stringify(payload)]);
      }
      for (let replay = 0; replay < 2; replay++) expect(await app.app.get(LogOutboxService).drain()).toBe(true);

      expect(await count(main, 'SELECT COUNT(*) AS n FROM log_outbox')).toBe(0);
      const after = await rows<Record<string, unknown>>(logs, 'SELECT * FROM logs ORDER BY id');
      const normalise = (list: Array<Record<string, unknown>>) => list.map((row) => ({ ...row, quota: Number(row.quota), created_at: Number(row.created_at), is_stream: Boolean(Number(row.is_stream)) }));
      expect(normalise(after)).toEqual(normalise(copied));
    });
  });

  it('loses no log row and writes none twice when the process is killed after the balance committed and before the copy', async () => {
    const upstream = await new MockUpstream().start();
    const mainScratch = await scratchDatabase(mainType);
    const logScratch = await scratchDatabase(logType);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-logdb-crash-'));
    const env = { ...mainScratch.env, LOG_SQL_DSN: logDsnOf(logScratch), METRICS_ENABLED: 'true', DATA_DIR: dataDir, SESSION_SECRET: 'logdb-crash-secret', WEB_DIST_DIR: path.join(dataDir, 'no-web') };
    const main = dataSourceFor(mainScratch.env);
    const logs = dataSourceFor(logScratch.env);
    const stop = async (gateway: Awaited<ReturnType<typeof startGateway>>, signal: NodeJS.Signals) => {
      const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
      gateway.child.kill(signal);
      await exited;
    };
    try {
      const first = await startGateway(env);
      let quotaBefore = 0;
      let quotaAfter = 0;
      let rootId = 0;
      let apiKey = '';
      const lock = await lockLogTable(logType, logScratch);
      try {
        const relay = await prepareRelay(first.baseUrl, upstream.url, 'crash-model');
        const { root } = relay;
        ({ apiKey } = relay);
        rootId = root.id;
        quotaBefore = ((await call(first.baseUrl, 'GET', '/api/user/self', undefined, root)).data as { quota: number }).quota;
        expect(await chatCall(first.baseUrl, apiKey)).toBe(200);
        await main.initialize();
        // The settlement commits the balance and its log row's outbox copy together; the copy over there waits on the lock.
        await eventually(async () => (await rows<{ payload: string }>(main, 'SELECT payload FROM log_outbox')).some((row) => (JSON.parse(row.payload) as { type: number }).type === 2));
        quotaAfter = ((await call(first.baseUrl, 'GET', '/api/user/self', undefined, root)).data as { quota: number }).quota;
        expect(quotaAfter).toBeLessThan(quotaBefore);
        // The metric an operator watches says the log database is behind.
        const exposition = parsePrometheusText(await (await fetch(`${first.baseUrl}/metrics`)).text());
        expect(sampleValue(exposition, 'gateway_log_outbox_lag_seconds')).toBeGreaterThan(0);
      } finally {
        await stop(first, 'SIGKILL');
        await lock.release();
      }
      const outboxed = await rows<{ id: number | string }>(main, 'SELECT id FROM log_outbox ORDER BY id');
      await logs.initialize();
      expect(await count(logs, 'SELECT COUNT(*) AS n FROM logs WHERE type = 2')).toBe(0);

      const second = await startGateway(env);
      try {
        // Started again, it copies what the killed process left in the outbox.
        await eventually(async () => (await count(main, 'SELECT COUNT(*) AS n FROM log_outbox')) === 0);
        const consumed = await rows<{ quota: number | string; user_id: number | string }>(logs, 'SELECT quota, user_id FROM logs WHERE type = 2');
        expect(consumed).toHaveLength(1);
        expect(Number(consumed[0].user_id)).toBe(rootId);
        expect(Number(consumed[0].quota)).toBe(quotaBefore - quotaAfter);
        const ids = (await rows<{ id: number | string }>(logs, 'SELECT id FROM logs ORDER BY id')).map((row) => Number(row.id));
        expect(ids).toEqual(expect.arrayContaining(outboxed.map((row) => Number(row.id))));
      } finally {
        await stop(second, 'SIGTERM');
      }
      // A clean stop after that copied nothing more and nothing twice.
      expect(await count(logs, 'SELECT COUNT(*) AS n FROM logs WHERE type = 2')).toBe(1);

      // Rows put into the log database some other way (old logs imported between two starts)
      // holding the very ids the outbox would hand out next: the next start moves the outbox past them.
      const top = Number((await rows<{ top: number | string }>(logs, 'SELECT MAX(id) AS top FROM logs'))[0].top);
      for (let id = top + 1; id <= top + 3; id++) await rows(logs, "INSERT INTO logs (id, user_id, created_at, type, content, quota) VALUES (?, 999999, 1, 4, 'imported', 0)", [id]);
      const third = await startGateway(env);
      try {
        expect(await chatCall(third.baseUrl, apiKey)).toBe(200);
        await eventually(async () => (await count(logs, 'SELECT COUNT(*) AS n FROM logs WHERE type = 2 AND user_id = ?', [rootId])) === 2);
        expect(await count(logs, "SELECT COUNT(*) AS n FROM logs WHERE user_id = 999999 AND content = 'imported'")).toBe(3);
      } finally {
        await stop(third, 'SIGTERM');
      }
    } finally {
      if (main.isInitialized) await main.destroy();
      if (logs.isInitialized) await logs.destroy();
      await mainScratch.drop();
      await logScratch.drop();
      await upstream.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The log database's server when the environment names one (PostgreSQL first), for the outage below. */
const logServerType: DatabaseType | undefined = process.env.TEST_PG_URL ? 'postgres' : process.env.TEST_MYSQL_URL ? 'mysql' : undefined;

(logServerType ? describe : describe.skip)('a separate log database that goes away (main on SQLite, logs on a server behind a proxy the test cuts)', () => {
  let upstream: MockUpstream;
  let proxy: TcpProxy;
  let logScratch: Scratch;
  let app: TestApp;
  let seed: RelaySeed;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    logScratch = await scratchDatabase(logServerType);
    const dsn = new URL(logScratch.env.SQL_DSN);
    proxy = await new TcpProxy(dsn.hostname, Number(dsn.port || (logServerType === 'mysql' ? 3306 : 5432))).start();
    dsn.hostname = '127.0.0.1';
    dsn.port = String(proxy.port);
    app = await startTestApp({ LOG_SQL_DSN: dsn.toString() }, { databaseType: 'sqlite' });
    seed = new RelaySeed(app);
    await setupRoot(app);
    await seed.setOption('ModelRatio', JSON.stringify({ 'logdb-model': 1 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'logdb-model': 1 }));
    await seed.setOption('PreConsumedQuota', 0);
    await seed.createChannel({ base_url: upstream.url, models: 'logdb-model' });
  });
  afterAll(async () => {
    proxy?.restore();
    await app?.stop();
    await proxy?.stop();
    await logScratch?.drop();
    await upstream?.stop();
  });

  it('keeps relaying and billing, answers the log pages with 503, and copies the waiting rows once it is back', async () => {
    const user = await registerUser(app, 'outage-user');
    await seed.setUserQuota(user.id, 100_000);
    const token = await seed.createToken(user.id, { remain_quota: 50_000 });
    proxy.cutOff();
    try {
      await openaiClient(app, token.apiKey).chat.completions.create({ model: 'logdb-model', messages: [{ role: 'user', content: 'hi' }] });
      expect(await app.app.get(SettlementBatcherService).drain()).toBe(true);
      expect((await seed.userQuota(user.id)).quota).toBe(100_000 - COST);
      expect(await app.app.get(LogOutboxService).drain()).toBe(false);
      const page = await user.get('/api/log/self');
      expect(page.status).toBe(503);
      expect(page.body.success).toBe(false);
    } finally {
      proxy.restore();
    }
    await seed.flush();
    const consumed = await seed.consumeLogs({ userId: user.id });
    expect(consumed.map((log) => log.quota)).toEqual([COST]);
    expect((await user.get('/api/log/self')).body.data.items).toHaveLength(1);
  });
});
