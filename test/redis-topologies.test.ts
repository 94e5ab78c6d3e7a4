import { login, setupRoot, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { RedisClusterSet, startRedisCluster, startSentinelSet, SentinelSet } from './support/redis-topologies';
import { eventually } from './support/until';
import { sameDatabaseEnv, startTestApp, type TestApp } from './support/test-app';

const enabled = process.env.TEST_REDIS_TOPOLOGIES === '1';
const MODEL = 'topology-model';
/** Successful requests one user may make in the (day-long) window of the model request limit. */
const SUCCESS_LIMIT = 12;
const CALLS = 20;

/** The Redis set under test: its connection string, and the disruption the traffic must ride through. */
interface Topology {
  connString: string;
  disrupt(userId: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The gateway on a Redis Sentinel set and on a Redis Cluster, both started here from the
 * redis-server binary on loopback ports: two instances share the database and the Redis, as
 * behind a load balancer. Sessions, option changes (pub/sub) and the model request limit (a
 * Lua script) work on each, and keep working through a Sentinel failover and a Cluster master
 * restart in the middle of traffic. Runs when TEST_REDIS_TOPOLOGIES=1.
 */
const suite = (name: string, startTopology: () => Promise<Topology>) =>
  (enabled ? describe : describe.skip)(`the gateway on ${name}`, () => {
    let topology: Topology;
    let first: TestApp;
    let second: TestApp;
    let root: Session;
    let upstream: MockUpstream;

    beforeAll(async () => {
      topology = await startTopology();
      upstream = await new MockUpstream().start();
      first = await startTestApp({ REDIS_CONN_STRING: topology.connString });
      second = await startTestApp({ ...sameDatabaseEnv(first.config), REDIS_CONN_STRING: topology.connString });
      root = await setupRoot(first);
    }, 90_000);
    afterAll(async () => {
      await second?.app.close();
      second?.server.close();
      await first?.stop();
      await upstream?.stop();
      await topology?.stop();
    });

    it('shares sessions: signed in on one instance, recognised on the other, signed out on both', async () => {
      const session = await login(first, 'root', 'root-pass-1');
      const onSecond = () => second.http.get('/api/user/self').set('Cookie', session.cookie).set('New-Api-User', String(session.id));
      expect((await onSecond()).status).toBe(200);
      await session.get('/api/user/logout');
      expect((await onSecond()).status).toBe(401);
    });

    it('spreads an option change to the other instance through pub/sub', async () => {
      expect((await root.put('/api/option/', { key: 'SystemName', value: `On ${name}` })).body.success).toBe(true);
      let systemName = '';
      for (let attempt = 0; attempt < 60 && systemName !== `On ${name}`; attempt++) {
        systemName = (await second.http.get('/api/status')).body.data.system_name;
        if (systemName !== `On ${name}`) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(systemName).toBe(`On ${name}`);
    });

    it('keeps the model request limit exact and the ledger explained through a disruption in the middle of traffic', async () => {
      const seeds = [new RelaySeed(first), new RelaySeed(second)];
      // A day-long window, so the test cannot straddle two windows (unless it runs across midnight UTC).
      const limit = { ModelRequestRateLimitDurationMinutes: 1440, ModelRequestRateLimitCount: 0, ModelRequestRateLimitSuccessCount: SUCCESS_LIMIT, ModelRequestRateLimitEnabled: true, ModelRatio: JSON.stringify({ [MODEL]: 1 }) };
      for (const seed of seeds) for (const [key, value] of Object.entries(limit)) await seed.setOption(key, value);
      await seeds[0].createChannel({ base_url: upstream.url, models: MODEL });
      const before = await seeds[0].userQuota(root.id);
      const token = await seeds[0].createToken(root.id, { unlimited_quota: true });
      const clients = [openaiClient(first, token.apiKey), openaiClient(second, token.apiKey)];
      // The channel was made on the first instance: the second learns of it through Redis, a moment later.
      for (const client of clients) await eventually(async () => (await client.models.list()).data.some((model) => model.id === MODEL));

      const outcomes: Array<number> = [];
      const unexpected: string[] = [];
      for (let call = 0; call < CALLS; call++) {
        if (call === 5) await topology.disrupt(root.id);
        try {
          await clients[call % 2].chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `call ${call}` }] });
          outcomes.push(200);
        } catch (error) {
          const { status, message } = error as { status?: number; message?: string };
          outcomes.push(status ?? 0);
          if (status !== 429) unexpected.push(`call ${call}: ${status ?? 'no status'} ${message ?? ''}`);
        }
      }
      // Named first, so a failure says what the odd call answered.
      expect(unexpected).toEqual([]);
      expect(outcomes.filter((status) => status === 200)).toHaveLength(SUCCESS_LIMIT);
      expect(outcomes.filter((status) => status === 429)).toHaveLength(CALLS - SUCCESS_LIMIT);

      for (const seed of seeds) await seed.flush();
      const after = await seeds[0].userQuota(root.id);
      const logs = await seeds[0].consumeLogs({ tokenId: token.id });
      expect(logs).toHaveLength(SUCCESS_LIMIT);
      const logged = logs.reduce((sum, log) => sum + log.quota, 0);
      expect(logged).toBeGreaterThan(0);
      expect(before.quota - after.quota).toBe(logged);
      expect(after.used_quota - before.used_quota).toBe(logged);
      expect(await seeds[0].tokenQuota(token.id)).toMatchObject({ used_quota: logged });
    }, 100_000);
  });

suite('a Redis Sentinel set (SENTINEL FAILOVER mid-traffic)', async () => {
  const set: SentinelSet = await startSentinelSet();
  return {
    connString: set.connString,
    disrupt: async () => {
      await set.failover();
    },
    stop: () => set.stop(),
  };
});

suite('a six-node Redis Cluster (a master restarted mid-traffic)', async () => {
  const cluster: RedisClusterSet = await startRedisCluster();
  return {
    connString: cluster.connString,
    disrupt: async (userId: number) => {
      // The master holding this user's rate-limit slot goes down; its replica takes over, and it comes back as a replica.
      const slotKey = `{${userId}}`;
      const master = await cluster.masterOf(slotKey);
      await master.stop();
      // Back only once its replica has taken over: a node without persistence that returned sooner would come back an empty master.
      await eventually(async () => (await cluster.masterOf(slotKey).catch(() => master)) !== master, 30_000);
      await cluster.healthy();
      await master.start();
      await cluster.healthy();
    },
    stop: () => cluster.stop(),
  };
});
