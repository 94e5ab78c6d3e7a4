import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareRelay, startGateway } from './support/child-gateway';
import { MockUpstream } from './support/mock-upstream';
import { freePort } from './support/redis-topologies';
import { dataSourceFor, scratchDatabase, testSql } from './support/test-app';
import { eventually } from './support/until';

const HAPROXY = '/usr/sbin/haproxy';
const mysqlUrl = process.env.TEST_MYSQL_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const available = existsSync(HAPROXY) && Boolean(mysqlUrl) && Boolean(redisUrl);
const MODEL = 'balanced-model';
const CALLS = 300;
const CONCURRENCY = 6;

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * deploy/haproxy/haproxy.cfg with the three loopback gateways in place of the compose service
 * names: health on /readyz, and a connection refused (an instance that has closed its listener)
 * tried again on another instance.
 */
function haproxyConfig(frontPort: number, gatewayPorts: number[]): string {
  const template = readFileSync(path.join(__dirname, '..', 'deploy', 'haproxy', 'haproxy.cfg'), 'utf8');
  const servers = gatewayPorts.map((port, index) => `  server gateway${index + 1} 127.0.0.1:${port}`).join('\n');
  return template
    .split('# Docker\'s embedded DNS')[0]
    .replace(/^ {2}bind .*$/m, `  bind 127.0.0.1:${frontPort}`)
    .replace(/ resolvers docker init-addr libc,none$/m, '')
    .replace(/ inter 1s /, ' inter 250ms ')
    .replace(/^ {2}server(-template)? .*\n/gm, '')
    .replace(/^( {2}default-server .*)$/m, `$1\n${servers}`);
}

/**
 * Three gateway processes on MariaDB and Redis behind HAProxy (Debian's package), as the
 * compose profile runs them. A few hundred calls go through the balancer while one instance is
 * restarted (SIGTERM, then started again on its port): not one call fails, and the ledger is
 * exact (the logged quotas add up to the balance change). Runs when HAProxy is installed and
 * TEST_MYSQL_URL and TEST_REDIS_URL are set.
 */
(available ? describe : describe.skip)('three instances behind HAProxy', () => {
  let upstream: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let haproxy: ChildProcess;
  let dir: string;
  const gateways: Gateway[] = [];
  let gatewayPorts: number[] = [];
  let frontUrl = '';
  let env: Record<string, string>;

  const startInstance = (index: number) =>
    startGateway({ ...env, PORT: String(gatewayPorts[index]), NODE_TYPE: index === 0 ? 'master' : 'slave', DATA_DIR: path.join(dir, `data-${index}`) });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gw-balanced-'));
    upstream = await new MockUpstream().start();
    database = await scratchDatabase();
    const redisDb = 1 + Math.floor(Math.random() * 14);
    const redis = `${redisUrl!.replace(/\/\d*$/, '')}/${redisDb}`;
    const { default: Redis } = await import('ioredis');
    const client = new Redis(redis);
    await client.flushdb();
    await client.quit();
    env = { ...database.env, REDIS_CONN_STRING: redis, SESSION_SECRET: 'balanced-secret', SHUTDOWN_DELAY_SECONDS: '2', SHUTDOWN_GRACE_SECONDS: '20', CRITICAL_RATE_LIMIT: '1000', WEB_DIST_DIR: path.join(dir, 'no-web') };
    gatewayPorts = await Promise.all([freePort(), freePort(), freePort()]);
    // The master first: it runs the migrations before the others start.
    gateways.push(await startInstance(0));
    gateways.push(...(await Promise.all([startInstance(1), startInstance(2)])));
    const frontPort = await freePort();
    const configFile = path.join(dir, 'haproxy.cfg');
    writeFileSync(configFile, haproxyConfig(frontPort, gatewayPorts));
    haproxy = spawn(HAPROXY, ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    frontUrl = `http://127.0.0.1:${frontPort}`;
    await eventually(async () => (await fetch(`${frontUrl}/healthz`).then((r) => r.ok).catch(() => false)), 20_000);
  }, 120_000);

  afterAll(async () => {
    haproxy?.kill('SIGTERM');
    for (const gateway of gateways) gateway.child.kill('SIGTERM');
    await Promise.all(gateways.map((gateway) => (gateway.child.exitCode === null ? new Promise((resolve) => gateway.child.once('exit', resolve)) : undefined)));
    await upstream?.stop();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('drops no call while one instance restarts, and every quota moved is logged', async () => {
    const { root, apiKey } = await prepareRelay(gateways[0].baseUrl, upstream.url, MODEL);
    const dataSource = dataSourceFor(database.env);
    await dataSource.initialize();
    try {
      const userQuota = async () => {
        const [row] = await dataSource.query(testSql('SELECT quota, used_quota FROM users WHERE id = ?'), [root.id]);
        return { quota: Number(row.quota), used: Number(row.used_quota) };
      };
      const before = await userQuota();

      const statuses: number[] = [];
      const failures: string[] = [];
      let sent = 0;
      const worker = async () => {
        while (sent < CALLS) {
          const call = sent++;
          const response = await fetch(`${frontUrl}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: `call ${call}` }] }),
          }).catch(() => null);
          statuses.push(response?.status ?? 0);
          const body = await response?.text();
          if (response?.status !== 200) failures.push(`${response?.status ?? 'no answer'}: ${body?.slice(0, 200)}`);
        }
      };
      const restart = async () => {
        await eventually(() => sent >= CALLS / 4, 60_000);
        const leaving = gateways[1];
        const exited = new Promise((resolve) => leaving.child.once('exit', resolve));
        leaving.child.kill('SIGTERM');
        await exited;
        gateways[1] = await startInstance(1);
      };
      await Promise.all([...Array.from({ length: CONCURRENCY }, worker), restart()]);

      expect(statuses).toHaveLength(CALLS);
      expect(failures).toEqual([]);
      // Settlements are batched off the request path: wait for every log row.
      let logs: Array<{ count: string | number; total: string | number | null }> = [];
      await eventually(async () => {
        logs = await dataSource.query(testSql('SELECT COUNT(*) AS count, SUM(quota) AS total FROM logs WHERE type = 2 AND user_id = ?'), [root.id]);
        return Number(logs[0].count) === CALLS;
      }, 20_000);
      const logged = Number(logs[0].total);
      expect(logged).toBeGreaterThan(0);
      await eventually(async () => (await userQuota()).used - before.used === logged, 10_000);
      const after = await userQuota();
      expect(before.quota - after.quota).toBe(logged);
      expect(after.used - before.used).toBe(logged);
    } finally {
      await dataSource.destroy();
    }
  }, 120_000);
});
