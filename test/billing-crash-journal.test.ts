import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { call, prepareRelay, startGateway } from './support/child-gateway';
import { MockUpstream } from './support/mock-upstream';
import { dataSourceFor, scratchDatabase, testSql } from './support/test-app';

/** Each child gateway compiles the app from source as it starts: on a loaded machine that alone took 27 s, and these tests start two and three. */
const CHILD_GATEWAYS_TIMEOUT_MS = 240_000;

const ROOT = { username: 'root', password: 'root-pass-1' };
const TOKEN_QUOTA = 100_000;

/** Sends a chat call whose answer never comes; the request stays in flight until the process dies. */
function hangingCall(baseUrl: string, apiKey: string): void {
  const request = http.request(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } });
  request.on('error', () => undefined);
  request.end(JSON.stringify({ model: 'hang-model', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }));
}

describe('billing: the hold journal survives a crash', () => {
  let upstream: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    upstream.handler = () => ({ sse: [], hangAfter: true });
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-crash-'));
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await upstream.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refunds, with a system log row, every hold a killed process left in flight when the next one starts', async () => {
    const env = { ...database.env, DATA_DIR: dataDir, SESSION_SECRET: 'crash-secret', WEB_DIST_DIR: path.join(dataDir, 'no-web') };
    const first = await startGateway(env);
    let rootId = 0;
    let tokenId = 0;
    let quotaBefore = 0;
    try {
      const { baseUrl } = first;
      await call(baseUrl, 'POST', '/api/setup', { ...ROOT, confirmPassword: ROOT.password });
      const signIn = await call(baseUrl, 'POST', '/api/user/login', ROOT);
      const root = { cookie: signIn.cookie, id: (signIn.data as { id: number }).id };
      rootId = root.id;
      await call(baseUrl, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' }, root);
      await call(baseUrl, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'hang-model': 1 }) }, root);
      await call(baseUrl, 'POST', '/api/channel/', { name: 'hang', type: 1, key: 'sk-hang', base_url: upstream.url, models: 'hang-model' }, root);
      const token = ((await call(baseUrl, 'POST', '/api/token/', { name: 'crash', remain_quota: TOKEN_QUOTA, unlimited_quota: false, expired_time: -1 }, root)).data as Array<{ id: number; key: string }>)[0];
      tokenId = token.id;
      quotaBefore = ((await call(baseUrl, 'GET', '/api/user/self', undefined, root)).data as { quota: number }).quota;

      for (let index = 0; index < 5; index++) hangingCall(baseUrl, token.key);
      // Wait until the upstream has all five: by then each hold is taken and journaled.
      for (let attempt = 0; attempt < 200 && upstream.requests.length < 5; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(upstream.requests).toHaveLength(5);
    } finally {
      const exited = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      await exited;
    }

    dataSource = dataSourceFor(database.env);
    await dataSource.initialize();
    const quotas = async () => {
      const [user] = await dataSource.query(testSql('SELECT quota FROM users WHERE id = ?'), [rootId]);
      const [token] = await dataSource.query(testSql('SELECT remain_quota FROM tokens WHERE id = ?'), [tokenId]);
      return { user: Number(user.quota), token: Number(token.remain_quota) };
    };
    // The holds of one batch share a row per token and user, so five holds make one to five rows.
    const held: Array<{ from_user: number | string }> = await dataSource.query('SELECT from_user FROM quota_holds');
    expect(held.length).toBeGreaterThanOrEqual(1);
    expect(held.length).toBeLessThanOrEqual(5);
    const heldTotal = held.reduce((sum, row) => sum + Number(row.from_user), 0);
    expect(heldTotal).toBeGreaterThan(0);
    expect(await quotas()).toEqual({ user: quotaBefore - heldTotal, token: TOKEN_QUOTA - heldTotal });

    const second = await startGateway(env);
    try {
      expect(await dataSource.query('SELECT id FROM quota_holds')).toHaveLength(0);
      expect(await quotas()).toEqual({ user: quotaBefore, token: TOKEN_QUOTA });
      const logs: Array<{ quota: number | string; other: string; content: string }> = await dataSource.query(testSql('SELECT quota, other, content FROM logs WHERE type = 4 AND user_id = ? AND token_id = ?'), [rootId, tokenId]);
      expect(logs).toHaveLength(held.length);
      expect(logs.every((log) => Number(log.quota) === 0 && log.content.startsWith('进程中断前未结算的请求'))).toBe(true);
      expect(logs.reduce((sum, log) => sum + Number(JSON.parse(log.other).refunded_hold), 0)).toBe(heldTotal);
    } finally {
      const exited = new Promise((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      await exited;
    }
  }, CHILD_GATEWAYS_TIMEOUT_MS);

  (process.env.TEST_REDIS_URL ? it : it.skip)('with Redis, leaves the holds of an instance that is still heart-beating and refunds them once its heartbeat has expired', async () => {
    const fresh = await scratchDatabase();
    const redisUrl = `${process.env.TEST_REDIS_URL!.replace(/\/\d*$/, '')}/15`;
    const { default: Redis } = await import('ioredis');
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    const env = { ...fresh.env, REDIS_CONN_STRING: redisUrl, DATA_DIR: dataDir, SESSION_SECRET: 'crash-secret', WEB_DIST_DIR: path.join(dataDir, 'no-web') };
    const stop = async (gateway: Awaited<ReturnType<typeof startGateway>>, signal: NodeJS.Signals) => {
      const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
      gateway.child.kill(signal);
      await exited;
    };
    const db = dataSourceFor(fresh.env);
    try {
      upstream.requests.length = 0;
      const first = await startGateway(env);
      let apiKey = '';
      try {
        ({ apiKey } = await prepareRelay(first.baseUrl, upstream.url, 'hang-model'));
        for (let index = 0; index < 3; index++) hangingCall(first.baseUrl, apiKey);
        for (let attempt = 0; attempt < 200 && upstream.requests.length < 3; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(upstream.requests).toHaveLength(3);
      } finally {
        await stop(first, 'SIGKILL');
      }
      await db.initialize();
      const holds = async () => (await db.query('SELECT id FROM quota_holds')) as Array<{ id: string }>;
      const held = await holds();
      expect(held.length).toBeGreaterThanOrEqual(1);
      const ownerKey = `gateway:hold-owner:${held[0].id.split('-')[0]}`;
      expect(await redis.exists(ownerKey)).toBe(1);

      // The killed instance's heartbeat has not expired yet: another instance may not take its holds for abandoned.
      const second = await startGateway(env);
      try {
        expect(await holds()).toHaveLength(held.length);
      } finally {
        await stop(second, 'SIGTERM');
      }

      await redis.del(ownerKey);
      const third = await startGateway(env);
      try {
        expect(await holds()).toHaveLength(0);
        const logs: Array<{ other: string }> = await db.query(testSql('SELECT other FROM logs WHERE type = 4 AND content LIKE ?'), ['进程中断前未结算的请求%']);
        expect(logs).toHaveLength(held.length);
      } finally {
        await stop(third, 'SIGTERM');
      }
    } finally {
      if (db.isInitialized) await db.destroy();
      await redis.quit();
      await fresh.drop();
    }
  }, CHILD_GATEWAYS_TIMEOUT_MS);
});
