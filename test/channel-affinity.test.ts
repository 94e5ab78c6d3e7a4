import OpenAI from 'openai';
import { setupRoot, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startInstancesOnRedis, type InstancePair } from './support/redis-instances';
import { startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/until';
import { RoutingClock } from '../src/modules/channel-health/routing-clock';

const MODEL = 'aff-model';
const TTL_SECONDS = 300;

/** A chat carrying a prompt-cache key (OpenAI's `prompt_cache_key`), or none. */
function chat(client: OpenAI, promptCacheKey?: string, headers: Record<string, string> = {}) {
  const body = { model: MODEL, messages: [{ role: 'user' as const, content: 'x' }], ...(promptCacheKey ? { prompt_cache_key: promptCacheKey } : {}) };
  return client.chat.completions.create(body, { headers });
}

/** Which upstreams the call reached, by name in the order given ('a', 'b', or 'a+b' for a failover from a to b). */
async function servedBy(call: () => Promise<unknown>, upstreams: Record<string, MockUpstream>): Promise<string> {
  const entries = Object.entries(upstreams);
  const before = entries.map(([, upstream]) => upstream.requests.length);
  await call();
  return entries.filter(([, upstream], index) => upstream.requests.length > before[index]).map(([name]) => name).join('+');
}

/**
 * Channel A has weight 1 and channel B weight 0, so a call without affinity always lands on A;
 * a key reaches B only by failing over from A once, and then stays there while the affinity lives.
 */
describe('channel affinity for prompt caches', () => {
  let app: TestApp;
  let a: MockUpstream;
  let b: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let apiKey = '';
  let client: OpenAI;
  let otherClient: OpenAI;
  let nowMs = Date.now();
  let bId = 0;

  /** Binds `key` to B: A fails that one call, the retry lands on B, which then holds the key. */
  async function bindToB(key: string, call: () => Promise<unknown> = () => chat(client, key)): Promise<void> {
    a.handler = () => ({ status: 500, json: { error: { message: 'a is down for a moment' } } });
    expect(await servedBy(call, { a, b })).toBe('a+b');
    a.handler = undefined;
  }

  beforeAll(async () => {
    a = await new MockUpstream().start();
    b = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    apiKey = (await seed.createToken(root.id, { unlimited_quota: true })).apiKey;
    client = openaiClient(app, apiKey);
    otherClient = openaiClient(app, (await seed.createToken(root.id, { unlimited_quota: true })).apiKey);
    jest.spyOn(app.app.get(RoutingClock), 'nowMs').mockImplementation(() => nowMs);
  });
  afterAll(async () => {
    await app.stop();
    await a.stop();
    await b.stop();
  });
  beforeEach(async () => {
    a.reset();
    b.reset();
    await seed.deleteAllChannels();
    await seed.setOption('RetryTimes', 1);
    await seed.setOption('ChannelAffinityTTLSeconds', TTL_SECONDS);
    await seed.createChannel({ name: 'a', base_url: a.url, models: MODEL, weight: 1 });
    bId = await seed.createChannel({ name: 'b', base_url: b.url, models: MODEL, weight: 0 });
  });

  it('keeps a key on its channel, renews it with each call, and lets it expire after the TTL', async () => {
    await bindToB('session-1');
    for (let i = 0; i < 5; i++) {
      nowMs += (TTL_SECONDS - 1) * 1000;
      expect(await servedBy(() => chat(client, 'session-1'), { a, b })).toBe('b');
    }
    // Calls without a key, or with another key, go by the weights.
    expect(await servedBy(() => chat(client), { a, b })).toBe('a');
    expect(await servedBy(() => chat(client, 'session-2'), { a, b })).toBe('a');

    nowMs += (TTL_SECONDS + 1) * 1000;
    expect(await servedBy(() => chat(client, 'session-1'), { a, b })).toBe('a');
    expect(await servedBy(() => chat(client, 'session-1'), { a, b })).toBe('a');
  });

  it('keys affinity per token', async () => {
    await bindToB('shared-key');
    expect(await servedBy(() => chat(client, 'shared-key'), { a, b })).toBe('b');
    expect(await servedBy(() => chat(otherClient, 'shared-key'), { a, b })).toBe('a');
  });

  it('spreads different keys over the tier by the weights', async () => {
    await seed.deleteAllChannels();
    await seed.createChannel({ name: 'a', base_url: a.url, models: MODEL, weight: 1 });
    await seed.createChannel({ name: 'b', base_url: b.url, models: MODEL, weight: 1 });
    const first = new Map<string, string>();
    for (let i = 0; i < 30; i++) first.set(`spread-${i}`, await servedBy(() => chat(client, `spread-${i}`), { a, b }));
    expect(a.requests.length).toBeGreaterThan(3);
    expect(b.requests.length).toBeGreaterThan(3);
    // And each key stays where it first went.
    for (const [key, upstream] of first) expect(await servedBy(() => chat(client, key), { a, b })).toBe(upstream);
  });

  it('abandons a failing target and follows the channel that answered instead', async () => {
    await bindToB('session-f');
    b.handler = () => ({ status: 503, json: { error: { message: 'b is overloaded' } } });
    expect(await servedBy(() => chat(client, 'session-f'), { a, b })).toBe('a+b');
    b.handler = undefined;
    expect(await servedBy(() => chat(client, 'session-f'), { a, b })).toBe('a');
    expect(await servedBy(() => chat(client, 'session-f'), { a, b })).toBe('a');
  });

  it('never sends a key to a channel whose breaker is open or that is disabled', async () => {
    await bindToB('session-open');
    await bindToB('session-other');
    await seed.setOption('ChannelBreakerFailures', 1);
    try {
      // Another session's call trips B's breaker (one fault is enough here).
      b.handler = () => ({ status: 500, json: { error: { message: 'b broke' } } });
      await chat(client, 'session-other');
      b.handler = undefined;
      expect(await servedBy(() => chat(client, 'session-open'), { a, b })).toBe('a');
    } finally {
      await seed.setOption('ChannelBreakerFailures', 5);
    }

    await bindToB('session-disabled');
    await root.put('/api/channel/', { id: bId, status: 2 }).expect(200);
    await eventually(async () => (await servedBy(() => chat(client, 'session-disabled'), { a, b })) === 'a');
    expect(await servedBy(() => chat(client, 'session-disabled'), { a, b })).toBe('a');
  });

  it("follows Claude Code's metadata.user_id and Codex's session header", async () => {
    const claudeCall = (userId: string) => () =>
      fetch(`${app.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, metadata: { user_id: userId }, messages: [{ role: 'user', content: 'hi' }] }),
      }).then((response) => expect(response.status).toBe(200));
    const claudeUser = 'user_0f1e_account__session_7c9d2b8e-1f3a-4c55-9f0e-2a1b3c4d5e6f';
    await bindToB(claudeUser, claudeCall(claudeUser));
    expect(await servedBy(claudeCall(claudeUser), { a, b })).toBe('b');
    expect(await servedBy(claudeCall('user_0f1e_account__session_another'), { a, b })).toBe('a');

    // Codex 0.171 sends `session-id`; earlier versions `session_id`.
    for (const [header, session] of [['session-id', '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'], ['session_id', '0199a1b2-c3d4-7e5f-8a9b-1c1d2e3f4a5b']]) {
      const codexCall = (id: string) => () => chat(client, undefined, { [header]: id });
      await bindToB(header, codexCall(session));
      expect(await servedBy(codexCall(session), { a, b })).toBe('b');
      expect(await servedBy(codexCall('0199a1b2-0000-7e5f-8a9b-0c1d2e3f4a5b'), { a, b })).toBe('a');
    }
  });

  it('is off with a TTL of 0', async () => {
    await seed.setOption('ChannelAffinityTTLSeconds', 0);
    await bindToB('session-off');
    expect(await servedBy(() => chat(client, 'session-off'), { a, b })).toBe('a');
  });
});

(process.env.TEST_REDIS_URL ? describe : describe.skip)('channel affinity shared through Redis', () => {
  let pair: InstancePair;
  let a: MockUpstream;
  let b: MockUpstream;

  beforeAll(async () => {
    a = await new MockUpstream().start();
    b = await new MockUpstream().start();
    pair = await startInstancesOnRedis(process.env.TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await pair.stop();
    await a.stop();
    await b.stop();
  });

  it("sends a key to the channel another instance bound it to", async () => {
    const seed = new RelaySeed(pair.first);
    const root = await setupRoot(pair.first);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await seed.setOption('RetryTimes', 1);
    const apiKey = (await seed.createToken(root.id, { unlimited_quota: true })).apiKey;
    const [onFirst, onSecond] = [openaiClient(pair.first, apiKey), openaiClient(pair.second, apiKey)];
    await seed.createChannel({ name: 'a', base_url: a.url, models: MODEL, weight: 1 });
    await seed.createChannel({ name: 'b', base_url: b.url, models: MODEL, weight: 0 });
    // The second instance learns of the channels through the cache invalidation.
    await eventually(async () => (await chat(onSecond).then(() => true, () => false)));

    a.handler = () => ({ status: 500, json: { error: { message: 'a is down for a moment' } } });
    expect(await servedBy(() => chat(onFirst, 'shared-session'), { a, b })).toBe('a+b');
    a.handler = undefined;
    expect(await servedBy(() => chat(onSecond, 'shared-session'), { a, b })).toBe('b');
    expect(await servedBy(() => chat(onSecond, 'other-session'), { a, b })).toBe('a');
  });
});
