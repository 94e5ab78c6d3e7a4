import OpenAI from 'openai';
import { setupRoot, type Session } from './support/accounts';
import { chatCompletion, MOCK_REPLY_TEXT, MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';
import { RoutingClock } from '../src/modules/channel-health/routing-clock';
import { ChannelHealthService } from '../src/modules/channel-health/channel-health.service';
import { startInstancesOnRedis, type InstancePair } from './support/redis-instances';
import { eventually } from './support/until';

const MODEL = 'hb-model';
const chat = (client: OpenAI) => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
/** The fast upstream's answer time; the slow one takes five times as long. What is counted is shares of calls, never time. */
const FAST_MS = 20;

/** An upstream answering chat after `delayMs` (read per call, so a test can change it). */
function delayed(upstream: MockUpstream, delay: () => number): void {
  upstream.handler = (request: ReceivedRequest) => ({ status: 200, json: chatCompletion(String(request.body.model), MOCK_REPLY_TEXT), delayMs: delay() });
}

/** How many of `calls` sequential calls reached `upstream`. */
async function share(client: OpenAI, upstream: MockUpstream, calls: number): Promise<number> {
  const before = upstream.requests.length;
  for (let i = 0; i < calls; i++) await chat(client);
  return (upstream.requests.length - before) / calls;
}

interface ChannelRow {
  id: number;
  weight: number;
  effective_weight: number;
  breaker_state: string;
  health_latency_ms: number;
  health_error_rate: number;
}

async function channelRows(admin: Session): Promise<Map<number, ChannelRow>> {
  const list = await admin.get('/api/channel/?p=1&page_size=50').expect(200);
  return new Map((list.body.data.items as ChannelRow[]).map((row) => [row.id, row]));
}

describe('health-aware balancing within a priority tier', () => {
  let app: TestApp;
  let fast: MockUpstream;
  let slow: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let client: OpenAI;
  let nowMs = Date.now();

  beforeAll(async () => {
    fast = await new MockUpstream().start();
    slow = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    client = openaiClient(app, (await seed.createToken(root.id, { unlimited_quota: true })).apiKey);
    jest.spyOn(app.app.get(RoutingClock), 'nowMs').mockImplementation(() => nowMs);
  });
  afterAll(async () => {
    await app.stop();
    await fast.stop();
    await slow.stop();
  });
  beforeEach(async () => {
    fast.reset();
    slow.reset();
    await seed.deleteAllChannels();
    await seed.setOption('RetryTimes', 1);
    await seed.setOption('ChannelBreakerFailures', 3);
    await seed.setOption('ChannelBreakerCooldownSeconds', 30);
  });

  it('gives a channel ten times slower a small share, and its share back once it is fast again', async () => {
    const fastId = await seed.createChannel({ name: 'fast', base_url: fast.url, models: MODEL, weight: 10 });
    const slowId = await seed.createChannel({ name: 'slow', base_url: slow.url, models: MODEL, weight: 10 });
    // Ten times, not a few: on a loaded machine every call's measured latency also carries the event loop's delays, which narrows the measured gap.
    let slowMs = FAST_MS * 10;
    delayed(fast, () => FAST_MS);
    delayed(slow, () => slowMs);

    // The first calls measure both; after them the slow one's share settles near 1/8 (its weight scaled by (20 + 10) / (200 + 10), the 10 ms being jitter allowance), against 1/2 by the static weights.
    await share(client, slow, 60);
    const slowShare = await share(client, slow, 200);
    expect(slowShare).toBeLessThan(1 / 3);
    const rows = await channelRows(root);
    expect(rows.get(slowId)!.effective_weight).toBeLessThan(rows.get(fastId)!.effective_weight / 2);
    expect(rows.get(slowId)!.health_latency_ms).toBeGreaterThan(rows.get(fastId)!.health_latency_ms * 2);
    expect(rows.get(fastId)).toMatchObject({ effective_weight: 10, breaker_state: 'closed', health_error_rate: 0 });

    slowMs = FAST_MS;
    await share(client, slow, 100);
    expect(await share(client, slow, 200)).toBeGreaterThan(0.35);
    // 560 sequential calls, a few hundred of them 200 ms long: more than the default minute on a loaded machine.
  }, 180_000);

  it('weighs static weights as before when health balancing is off', async () => {
    await seed.setOption('ChannelHealthBalancingEnabled', false);
    try {
      await seed.createChannel({ name: 'fast', base_url: fast.url, models: MODEL, weight: 10 });
      await seed.createChannel({ name: 'slow', base_url: slow.url, models: MODEL, weight: 10 });
      delayed(fast, () => FAST_MS);
      delayed(slow, () => FAST_MS * 5);
      await share(client, slow, 20);
      expect(await share(client, slow, 100)).toBeGreaterThan(0.3);
    } finally {
      await seed.setOption('ChannelHealthBalancingEnabled', true);
    }
  });

  it('opens the breaker after consecutive faults, lets one probe through after the cool-down, and closes on its success', async () => {
    const failingId = await seed.createChannel({ name: 'failing', base_url: slow.url, models: MODEL, priority: 10 });
    await seed.createChannel({ name: 'backup', base_url: fast.url, models: MODEL, priority: 0 });
    slow.handler = () => ({ status: 500, json: { error: { message: 'upstream broke' } } });

    // Three calls each try the top tier first and fail over to the backup: then the breaker opens.
    for (let i = 0; i < 3; i++) expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(slow.requests).toHaveLength(3);
    expect((await channelRows(root)).get(failingId)).toMatchObject({ breaker_state: 'open', effective_weight: 0 });
    await share(client, slow, 5);
    expect(slow.requests).toHaveLength(3);
    expect(fast.requests).toHaveLength(8);

    // After the cool-down one call probes it; it still fails, so the breaker rests again.
    nowMs += 31_000;
    await chat(client);
    expect(slow.requests).toHaveLength(4);
    await share(client, slow, 3);
    expect(slow.requests).toHaveLength(4);

    // The next probe is held open upstream: meanwhile the breaker is half-open and other calls pass it by.
    nowMs += 31_000;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    slow.handler = async (request) => {
      await released;
      return { status: 200, json: chatCompletion(String(request.body.model), MOCK_REPLY_TEXT) };
    };
    const probe = chat(client);
    await eventually(() => slow.requests.length === 5);
    expect((await channelRows(root)).get(failingId)!.breaker_state).toBe('half_open');
    const fastBefore = fast.requests.length;
    await chat(client);
    expect(fast.requests.length).toBe(fastBefore + 1);
    expect(slow.requests).toHaveLength(5);
    release();
    await probe;
    expect((await channelRows(root)).get(failingId)!.breaker_state).toBe('closed');
    await share(client, slow, 3);
    expect(slow.requests).toHaveLength(8);
  });

  it('still tries a channel whose breaker rests when no other channel is left', async () => {
    await seed.createChannel({ name: 'only', base_url: slow.url, models: MODEL });
    slow.handler = () => ({ status: 500, json: { error: { message: 'upstream broke' } } });
    for (let i = 0; i < 3; i++) await chat(client).catch(() => undefined);
    expect(slow.requests).toHaveLength(3);
    slow.handler = undefined;
    expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
  });

  it('does not count the client\'s own errors against the channel', async () => {
    const id = await seed.createChannel({ name: 'strict', base_url: slow.url, models: MODEL });
    slow.handler = () => ({ status: 400, json: { error: { message: 'bad request', type: 'invalid_request_error' } } });
    for (let i = 0; i < 4; i++) await chat(client).catch(() => undefined);
    expect((await channelRows(root)).get(id)).toMatchObject({ breaker_state: 'closed', health_error_rate: 0 });
  });
});

(process.env.TEST_REDIS_URL ? describe : describe.skip)('health figures shared through Redis', () => {
  let pair: InstancePair;
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    pair = await startInstancesOnRedis(process.env.TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await pair.stop();
    await upstream.stop();
  });

  it('lets the second instance weigh a channel by the first one\'s calls', async () => {
    const seed = new RelaySeed(pair.first);
    const root = await setupRoot(pair.first);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    const client = openaiClient(pair.first, (await seed.createToken(root.id, { unlimited_quota: true })).apiKey);
    const id = await seed.createChannel({ name: 'flaky', base_url: upstream.url, models: MODEL });
    let calls = 0;
    upstream.handler = (request) => (++calls % 2 === 0 ? { status: 502, json: { error: { message: 'flaky' } } } : { status: 200, json: chatCompletion(String(request.body.model), MOCK_REPLY_TEXT) });
    for (let i = 0; i < 10; i++) await chat(client).catch(() => undefined);
    const firstRate = (await channelRows(root)).get(id)!.health_error_rate;
    expect(firstRate).toBeGreaterThan(0.2);

    await pair.first.app.get(ChannelHealthService).sync();
    await pair.second.app.get(ChannelHealthService).sync();
    const onSecond = pair.second.app.get(ChannelHealthService).figures({ id, priority: 0, weight: 10 });
    expect(onSecond.health_error_rate).toBeCloseTo(firstRate, 3);
    expect(onSecond.effective_weight).toBeLessThan(10 * (1 - 0.2));
  });
});
