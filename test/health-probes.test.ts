import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { OptionEntity } from '../src/modules/options/entities/option.entity';
import { startGateway } from './support/child-gateway';
import { TcpProxy } from './support/tcp-proxy';
import { scratchDatabase, startTestApp, type TestApp } from './support/test-app';
import { eventually } from './support/until';

interface Probe {
  status: number;
  body: { status: string; checks?: Record<string, string> };
}

async function probe(baseUrl: string, path: '/healthz' | '/readyz'): Promise<Probe> {
  const response = await fetch(baseUrl + path);
  return { status: response.status, body: (await response.json()) as Probe['body'] };
}

describe('health probes', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('/healthz answers 200 without a session; /readyz 200 once the database answers and the migrations are applied', async () => {
    expect(await probe(app.baseUrl, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(app.baseUrl, '/readyz')).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'off', migrations: 'ok' } } });
    const post = await fetch(`${app.baseUrl}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

/** MariaDB or PostgreSQL: SQLite is a file and cannot go away like this. */
const serverUrl = process.env.TEST_PG_URL ?? process.env.TEST_MYSQL_URL;
const describeOnServer = serverUrl ? describe : describe.skip;

describeOnServer('/readyz while the database server is unreachable (a cuttable proxy)', () => {
  let proxy: TcpProxy;
  let app: TestApp;

  beforeAll(async () => {
    const server = new URL(serverUrl!);
    proxy = await new TcpProxy(server.hostname, Number(server.port || (server.protocol.startsWith('postgres') ? 5432 : 3306))).start();
    app = await startTestApp({}, { databasePort: proxy.port });
  });
  afterAll(async () => {
    proxy.restore();
    await app.stop();
    await proxy.stop();
  });

  it('goes 503 when the database is cut off and back to 200 when it returns, while /healthz stays 200', async () => {
    expect((await probe(app.baseUrl, '/readyz')).status).toBe(200);
    proxy.cutOff();
    const down = await probe(app.baseUrl, '/readyz');
    expect(down).toEqual({ status: 503, body: { status: 'not_ready', checks: { database: 'down', redis: 'off', migrations: 'pending' } } });
    expect((await probe(app.baseUrl, '/healthz')).status).toBe(200);
    proxy.restore();
    await eventually(async () => (await probe(app.baseUrl, '/readyz')).status === 200, 15_000);
  });
});

const describeOnRedis = process.env.TEST_REDIS_URL ? describe : describe.skip;

describeOnRedis('/readyz with Redis configured', () => {
  let proxy: TcpProxy;
  let app: TestApp;

  beforeAll(async () => {
    const redis = new URL(process.env.TEST_REDIS_URL!);
    proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    app = await startTestApp({ REDIS_CONN_STRING: `redis://127.0.0.1:${proxy.port}/13` });
  });
  afterAll(async () => {
    proxy.restore();
    await app.stop();
    await proxy.stop();
  });

  it('checks Redis, goes 503 while it is unreachable and recovers', async () => {
    expect(await probe(app.baseUrl, '/readyz')).toMatchObject({ status: 200, body: { checks: { redis: 'ok' } } });
    proxy.cutOff();
    await eventually(async () => (await probe(app.baseUrl, '/readyz')).status === 503);
    expect((await probe(app.baseUrl, '/readyz')).body.checks).toMatchObject({ database: 'ok', redis: 'down' });
    proxy.restore();
    await eventually(async () => (await probe(app.baseUrl, '/readyz')).status === 200);
  });

  it('listens for other instances\' cache invalidations again once Redis is back', async () => {
    proxy.cutOff();
    await eventually(async () => (await probe(app.baseUrl, '/readyz')).status === 503);
    proxy.restore();
    await eventually(async () => (await probe(app.baseUrl, '/readyz')).status === 200);
    // Another instance changed the setting in the shared database and announced it through Redis.
    const options = app.app.get(DataSource).getRepository(OptionEntity);
    await options.upsert({ key: 'SystemName', value: 'Renamed Elsewhere' }, ['key']);
    const { default: Redis } = await import('ioredis');
    const announcer = new Redis(`redis://127.0.0.1:${proxy.port}/13`);
    try {
      await eventually(async () => {
        await announcer.publish('gateway:cache-invalidate', JSON.stringify({ name: 'options', from: 'another-instance' }));
        return (await app.http.get('/api/status')).body.data.system_name === 'Renamed Elsewhere';
      });
    } finally {
      announcer.disconnect();
    }
  });
});

describe('/readyz at SIGTERM', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;

  beforeAll(async () => {
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-probes-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 from the signal on, while the server still accepts for SHUTDOWN_DELAY_SECONDS, then stops and exits 0', async () => {
    const gateway = await startGateway({ ...database.env, DATA_DIR: dataDir, SESSION_SECRET: 'probe-secret', SHUTDOWN_DELAY_SECONDS: '2', WEB_DIST_DIR: path.join(dataDir, 'no-web') });
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
    try {
      expect((await probe(gateway.baseUrl, '/readyz')).status).toBe(200);
      gateway.child.kill('SIGTERM');
      await eventually(async () => (await probe(gateway.baseUrl, '/readyz')).status === 503, 1_500);
      // New connections are still accepted: the load balancer sees "not ready", not a refused connection.
      expect(await probe(gateway.baseUrl, '/readyz')).toMatchObject({ status: 503, body: { status: 'shutting_down' } });
      expect((await probe(gateway.baseUrl, '/healthz')).status).toBe(200);
      expect(await exited).toBe(0);
      expect(gateway.output()).toContain('/readyz answers 503');
      await expect(fetch(`${gateway.baseUrl}/healthz`)).rejects.toThrow();
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });
});
