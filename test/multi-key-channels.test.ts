import OpenAI, { APIError } from 'openai';
import type { ChannelKeyList } from '../src/modules/channels/channel.wire';
import { ChannelProbeService } from '../src/modules/monitoring/channel-probe.service';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MOCK_REPLY_TEXT, MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/until';

const MODEL = 'mk-model';
const chat = (client: OpenAI) => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
const bearer = (request: ReceivedRequest) => String(request.headers.authorization ?? '').replace(/^Bearer /, '');

/** Keys long enough to look like real ones, so a leak of any of them would be found in an answer. */
const KEYS = ['sk-mk-alpha-0000000000000000000001', 'sk-mk-bravo-0000000000000000000002', 'sk-mk-charlie-000000000000000000003', 'sk-mk-delta-0000000000000000000004'];

describe('multi-key channels', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let client: OpenAI;
  let aliceId: number;
  /** Keys the upstream refuses with a 401 that quotes the key, as OpenAI does. */
  let revoked: Set<string>;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    const alice = await registerUser(app, 'alice');
    aliceId = alice.id;
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await seed.setUserQuota(alice.id, 100_000_000);
    client = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });
  beforeEach(async () => {
    upstream.reset();
    revoked = new Set();
    upstream.handler = (request) => {
      const key = bearer(request);
      if (revoked.has(key)) return { status: 401, json: { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } };
      return undefined;
    };
    await seed.deleteAllChannels();
    await seed.setOption('RetryTimes', 2);
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    await seed.setOption('AutomaticEnableChannelEnabled', true);
  });

  /** Through the admin API, as the console creates it: one key per line and a mode. */
  async function createChannel(keys: string[], mode: 'random' | 'polling'): Promise<number> {
    const created = await root.post('/api/channel', { name: 'multi', type: 1, key: keys.join('\n'), base_url: upstream.url, models: MODEL, multi_key_mode: mode }).expect(200);
    expect(created.body).toMatchObject({ success: true, data: [{ multi_key_mode: mode }] });
    return created.body.data[0].id as number;
  }

  async function keyList(id: number): Promise<ChannelKeyList> {
    const response = await root.get(`/api/channel/${id}/keys`).expect(200);
    expect(response.body.success).toBe(true);
    return response.body.data as ChannelKeyList;
  }

  const statuses = async (id: number) => (await keyList(id)).keys.map((key) => key.status);

  it('polling visits the keys in order, and the log row names the key that served by its index', async () => {
    const id = await createChannel(KEYS.slice(0, 3), 'polling');
    for (let call = 0; call < 6; call++) expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(upstream.requests.map(bearer)).toEqual([...KEYS.slice(0, 3), ...KEYS.slice(0, 3)]);

    await seed.flush();
    const logs = (await seed.consumeLogs({ userId: aliceId })).slice(-6);
    expect(logs.map((log) => log.other.key_index)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(logs.every((log) => log.channel_id === id)).toBe(true);
    expect(JSON.stringify(logs)).not.toMatch(/sk-mk-/);
    expect((await keyList(id)).keys.map((key) => key.use_count)).toEqual([2, 2, 2]);
  });

  it('random spreads the calls over every key', async () => {
    const id = await createChannel(KEYS, 'random');
    const calls = 120;
    for (let call = 0; call < calls; call++) await chat(client);
    const perKey = KEYS.map((key) => upstream.requests.filter((request) => bearer(request) === key).length);
    // 30 expected each; fewer than 10 has a probability far below one in a million.
    for (const count of perKey) expect(count).toBeGreaterThanOrEqual(10);
    expect(perKey.reduce((sum, count) => sum + count, 0)).toBe(calls);
    expect((await keyList(id)).keys.map((key) => key.use_count)).toEqual(perKey);
  });

  it('auto-disables a key that answers 401 alone, serves from the others, and brings it back after a passing test', async () => {
    const id = await createChannel(KEYS.slice(0, 3), 'polling');
    revoked.add(KEYS[1]);
    // The call that draws the revoked key is retried on another key of the same channel.
    for (let call = 0; call < 2; call++) expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    await eventually(async () => (await statuses(id))[1] === 3);
    const list = await keyList(id);
    expect(list.keys.map((key) => key.status)).toEqual([1, 3, 1]);
    expect(list.keys[1]).toMatchObject({ status_reason: expect.stringContaining('401'), status_time: expect.any(Number), last_error: expect.stringContaining('401') });
    expect(list.keys[1].status_reason).not.toContain(KEYS[1]);
    expect((await seed.channel(id)).status).toBe(1);

    upstream.requests.length = 0;
    for (let call = 0; call < 6; call++) await chat(client);
    expect(upstream.requests.map(bearer)).not.toContain(KEYS[1]);
    expect(new Set(upstream.requests.map(bearer))).toEqual(new Set([KEYS[0], KEYS[2]]));

    // A test that still fails keeps it out; the admin's test of the key, once it passes, brings it back.
    expect((await root.post(`/api/channel/${id}/keys/1/test`).expect(200)).body).toMatchObject({ success: false, time: expect.any(Number) });
    expect((await keyList(id)).keys[1]).toMatchObject({ status: 3, last_error: expect.stringMatching(/^test: status 401/) });
    revoked.delete(KEYS[1]);
    expect((await root.post(`/api/channel/${id}/keys/1/test`).expect(200)).body).toMatchObject({ success: true });
    expect(await statuses(id)).toEqual([1, 1, 1]);

    // And the scheduled test does the same for a key that recovers on its own.
    revoked.add(KEYS[2]);
    await root.post(`/api/channel/${id}/keys/2/test`).expect(200);
    expect(await statuses(id)).toEqual([1, 1, 3]);
    revoked.delete(KEYS[2]);
    await app.app.get(ChannelProbeService).testAll();
    expect(await statuses(id)).toEqual([1, 1, 1]);
    upstream.requests.length = 0;
    for (let call = 0; call < 3; call++) await chat(client);
    expect(upstream.requests.map(bearer)).toContain(KEYS[2]);
  });

  it('disables the channel only when all its keys are down, and enables it when one comes back', async () => {
    const id = await createChannel(KEYS.slice(0, 2), 'random');
    revoked.add(KEYS[0]);
    revoked.add(KEYS[1]);
    const error = await chat(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(JSON.stringify((error as APIError).error)).not.toMatch(/sk-mk-/);
    await eventually(async () => (await seed.channel(id)).status === 3);
    expect(await statuses(id)).toEqual([3, 3]);
    expect(JSON.parse(String((await seed.channel(id)).other_info)).status_reason).toContain('all of its keys are disabled');
    // Two keys, two attempts: the channel is tried again with its other key before it is given up.
    expect(upstream.requests.map(bearer).sort()).toEqual(KEYS.slice(0, 2));

    revoked.delete(KEYS[1]);
    await app.app.get(ChannelProbeService).testAll();
    expect(await statuses(id)).toEqual([3, 1]);
    expect((await seed.channel(id)).status).toBe(1);
    expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
  });

  it('enables the automatically disabled keys with the channel when an admin enables it; keys the admin disabled stay', async () => {
    const id = await createChannel(KEYS.slice(0, 3), 'random');
    await root.post(`/api/channel/${id}/keys/2/disable`).expect(200);
    revoked.add(KEYS[0]);
    revoked.add(KEYS[1]);
    await chat(client).catch(() => undefined);
    await eventually(async () => (await seed.channel(id)).status === 3);
    expect(await statuses(id)).toEqual([3, 3, 2]);
    expect((await root.put('/api/channel', { id, status: 1 }).expect(200)).body.success).toBe(true);
    expect(await statuses(id)).toEqual([1, 1, 2]);
  });

  it('lets an admin disable, enable and delete one key; an admin-disabled key is never tested back', async () => {
    const id = await createChannel(KEYS.slice(0, 3), 'polling');
    expect((await root.post(`/api/channel/${id}/keys/0/disable`).expect(200)).body.data.keys.map((key: { status: number }) => key.status)).toEqual([2, 1, 1]);
    await app.app.get(ChannelProbeService).testAll();
    expect(await statuses(id)).toEqual([2, 1, 1]);
    for (let call = 0; call < 4; call++) await chat(client);
    expect(upstream.requests.filter((request) => request.path.includes('chat')).map(bearer)).not.toContain(KEYS[0]);

    await root.post(`/api/channel/${id}/keys/0/enable`).expect(200);
    expect(await statuses(id)).toEqual([1, 1, 1]);

    // Deleting a key moves the later keys (and their states) up one index.
    await root.post(`/api/channel/${id}/keys/2/disable`).expect(200);
    const afterDelete = (await root.delete(`/api/channel/${id}/keys/1`).expect(200)).body.data as ChannelKeyList;
    expect(afterDelete.keys.map((key) => [key.index, key.status])).toEqual([[0, 1], [1, 2]]);
    upstream.requests.length = 0;
    for (let call = 0; call < 3; call++) await chat(client);
    expect(new Set(upstream.requests.map(bearer))).toEqual(new Set([KEYS[0]]));

    // Disabling every key takes the channel out; enabling one brings it back.
    await root.post(`/api/channel/${id}/keys/0/disable`).expect(200);
    expect((await seed.channel(id)).status).toBe(3);
    await root.post(`/api/channel/${id}/keys/1/enable`).expect(200);
    expect((await seed.channel(id)).status).toBe(1);

    await root.delete(`/api/channel/${id}/keys/0`).expect(200);
    expect((await root.delete(`/api/channel/${id}/keys/0`).expect(200)).body).toMatchObject({ success: false, message: '不能删除渠道的最后一个密钥' });
    for (const path of [`/api/channel/${id}/keys/5/disable`, `/api/channel/${id}/keys/x/enable`, `/api/channel/${id}/keys/-1/disable`]) {
      expect((await root.post(path).expect(200)).body).toMatchObject({ success: false });
    }
    expect((await root.get('/api/channel/999999/keys').expect(200)).body).toMatchObject({ success: false });
  });

  it('keeps the states of the keys that stay when the key field is edited, and takes the mode', async () => {
    const id = await createChannel(KEYS.slice(0, 3), 'random');
    await root.post(`/api/channel/${id}/keys/2/disable`).expect(200);
    const updated = await root.put('/api/channel', { id, key: [KEYS[2], KEYS[3], KEYS[0]].join('\n'), multi_key_mode: 'polling' }).expect(200);
    expect(updated.body).toMatchObject({ success: true, data: { multi_key_mode: 'polling', key: '' } });
    expect(await statuses(id)).toEqual([2, 1, 1]);
    expect((await root.put('/api/channel', { id, multi_key_mode: 'round' }).expect(200)).body).toMatchObject({ success: false });
  });

  it('never answers a key unmasked', async () => {
    const id = await createChannel(KEYS, 'polling');
    revoked.add(KEYS[3]);
    for (let call = 0; call < 4; call++) await chat(client);
    await eventually(async () => (await statuses(id))[3] === 3);
    const answers = [
      await root.get(`/api/channel/${id}/keys`),
      await root.get(`/api/channel/${id}`),
      await root.get('/api/channel/?p=1&page_size=10'),
      await root.get('/api/channel/search?keyword=multi'),
      await root.post(`/api/channel/${id}/keys/3/test`),
      await root.get(`/api/channel/test/${id}`),
      await root.get('/api/audit/?p=1&page_size=50'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const key of KEYS) expect(JSON.stringify(answer.body)).not.toContain(key);
    }
    const masked = (await keyList(id)).keys.map((key) => key.masked_key);
    expect(masked).toEqual(['sk-m…0001', 'sk-m…0002', 'sk-m…0003', 'sk-m…0004']);
  });
});
