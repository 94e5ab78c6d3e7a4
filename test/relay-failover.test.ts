import OpenAI, { APIError } from 'openai';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MOCK_REPLY_TEXT, MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

const chat = (client: OpenAI, model = 'fo-model') => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] });

describe('relay: failover, status mapping, auto-disable, probes', () => {
  let app: TestApp;
  let first: MockUpstream;
  let second: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let client: OpenAI;

  beforeAll(async () => {
    first = await new MockUpstream().start();
    second = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'fo-model': 1, 'gpt-4o': 1 }));
    await seed.setUserQuota(alice.id, 100_000_000);
    client = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await first.stop();
    await second.stop();
  });
  beforeEach(async () => {
    first.reset();
    second.reset();
    await seed.deleteAllChannels();
    await seed.setOption('RetryTimes', 2);
    await seed.setOption('AutomaticDisableChannelEnabled', false);
  });

  it('fails over from a failing high-priority channel to the next tier, and logs both', async () => {
    const high = await seed.createChannel({ name: 'high', base_url: first.url, models: 'fo-model', priority: 10 });
    const low = await seed.createChannel({ name: 'low', base_url: second.url, models: 'fo-model', priority: 0 });
    first.handler = () => ({ status: 500, json: { error: { message: 'boom' } } });
    const before = await seed.userQuota(alice.id);
    const answer = await chat(client);
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
    await seed.flush();
    const [log] = (await seed.consumeLogs({ userId: alice.id })).slice(-1);
    expect(log).toMatchObject({ channel_id: low, quota: 19 });
    expect(log.other).toMatchObject({ admin_info: { use_channel: [high, low] } });
    expect(before.quota - (await seed.userQuota(alice.id)).quota).toBe(19);
  });

  it('retries 429 and connection errors, never the same channel twice, and gives up after RetryTimes', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 5 });
    first.handler = () => ({ status: 429, json: { error: { message: 'slow down' } } });
    const error = await chat(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(first.requests).toHaveLength(1);

    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: 5 });
    second.handler = () => ({ destroy: true });
    const both = await chat(client).catch((caught: unknown) => caught);
    expect((both as APIError).status).toBeGreaterThanOrEqual(429);
    expect(first.requests.length + second.requests.length).toBe(3);
  });

  it('does not retry a 400 caused by the request, and passes it through', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 10 });
    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: 0 });
    first.handler = () => ({ status: 400, json: { error: { message: 'messages must not be empty', type: 'invalid_request_error', code: 'bad_messages' } } });
    const error = (await chat(client).catch((caught: unknown) => caught)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain('messages must not be empty');
    expect(error.code).toBe('bad_messages');
    expect(second.requests).toHaveLength(0);
  });

  it('does not retry 504 and applies status_code_mapping to what the client sees', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 10, status_code_mapping: JSON.stringify({ '400': '422' }) });
    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: 0 });
    first.handler = () => ({ status: 400, json: { error: { message: 'bad' } } });
    expect(((await chat(client).catch((caught: unknown) => caught)) as APIError).status).toBe(422);
    first.handler = () => ({ status: 504, json: { error: { message: 'gateway timeout' } } });
    expect(((await chat(client).catch((caught: unknown) => caught)) as APIError).status).toBe(504);
    expect(second.requests).toHaveLength(0);
  });

  it('applies status_code_mapping on each attempt, before the retry decision', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 10, status_code_mapping: JSON.stringify({ '400': '503' }) });
    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: 0 });
    first.handler = () => ({ status: 400, json: { error: { message: 'this channel rejects everything' } } });
    expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
  });

  it('gives every answer a request id, quotes it in errors and keeps it in the log row', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model' });
    const { data, response } = await client.chat.completions.create({ model: 'fo-model', messages: [{ role: 'user', content: 'x' }] }).withResponse();
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    await seed.flush();
    const [log] = (await seed.consumeLogs({ userId: alice.id })).slice(-1);
    expect(log.other).toMatchObject({ request_id: requestId });
    first.handler = () => ({ status: 400, json: { error: { message: 'bad' } } });
    const failed = await fetch(`${app.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fo-model', messages: [{ role: 'user', content: 'x' }] }),
    });
    const failedId = failed.headers.get('x-request-id');
    expect(failedId).toMatch(/^[0-9a-f-]{36}$/);
    expect(failedId).not.toBe(requestId);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toBe(`bad (request id: ${failedId})`);
  });

  it('never reveals the upstream key or URL in errors', async () => {
    await seed.createChannel({ base_url: first.url, models: 'fo-model', key: 'sk-very-secret-upstream' });
    first.handler = () => ({ status: 500, json: { error: { message: `key sk-very-secret-upstream failed at ${first.url}/v1/chat/completions` } } });
    const response = await fetch(`${app.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fo-model', messages: [{ role: 'user', content: 'x' }] }),
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain(first.url);
    expect(text).not.toContain('127.0.0.1');
  });

  it('picks by weight inside a priority tier', async () => {
    await seed.setOption('RetryTimes', 0);
    await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 1, weight: 3 });
    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: 1, weight: 1 });
    await seed.createChannel({ base_url: second.url, models: 'fo-model', priority: -5, weight: 100 });
    const total = 400;
    for (let i = 0; i < total; i += 20) await Promise.all(Array.from({ length: 20 }, () => chat(client)));
    const share = first.requests.length / total;
    // Expected 0.75; five standard deviations (σ ≈ 0.022) keeps this from flaking.
    expect(share).toBeGreaterThan(0.64);
    expect(share).toBeLessThan(0.86);
    expect(first.requests.length + second.requests.length).toBe(total);
  });

  it('auto-disables a channel on 401 or a keyword (in a 429 too), never on other 429/5xx or with auto_ban off', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'broken', base_url: first.url, models: 'fo-model', priority: 10 });
    const backup = await seed.createChannel({ name: 'backup', base_url: second.url, models: 'fo-model', priority: 0 });
    first.handler = () => ({ status: 401, json: { error: { message: 'Incorrect API key provided' } } });
    await chat(client);
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
    const disabled = await seed.channel(broken);
    expect(JSON.parse(String(disabled.other_info))).toMatchObject({ status_reason: expect.stringContaining('401'), status_time: expect.any(Number) });
    await chat(client);
    expect(first.requests).toHaveLength(1);

    const keyword = await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 20 });
    first.handler = () => ({ status: 403, json: { error: { message: 'Your Credit Balance Is Too Low to access the API' } } });
    await chat(client);
    expect(await seed.channelStatusEventually(keyword, 3)).toBe(3);

    // OpenAI answers an exhausted account with 429; its message is one of the default keywords.
    const exhausted = await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 25 });
    first.handler = () => ({ status: 429, json: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota' } } });
    await chat(client);
    expect(await seed.channelStatusEventually(exhausted, 3)).toBe(3);

    // The error's type or code names a broken account, whatever the message says (new-api's list).
    const deactivated = await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 27 });
    first.handler = () => ({ status: 400, json: { error: { message: 'Request refused', type: 'invalid_request_error', code: 'account_deactivated' } } });
    await chat(client);
    expect(await seed.channelStatusEventually(deactivated, 3)).toBe(3);

    const flaky = await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 30 });
    first.handler = () => ({ status: 429, json: { error: { message: 'rate limited' } } });
    await chat(client);
    first.handler = () => ({ status: 503, json: { error: { message: 'overloaded' } } });
    await chat(client);
    expect((await seed.channel(flaky)).status).toBe(1);

    const noBan = await seed.createChannel({ base_url: first.url, models: 'fo-model', priority: 40, auto_ban: 0 });
    first.handler = () => ({ status: 401, json: { error: { message: 'Incorrect API key provided' } } });
    await chat(client);
    expect((await seed.channel(noBan)).status).toBe(1);
    expect((await seed.channel(backup)).status).toBe(1);
  });

  it('keeps a manually disabled channel disabled when a probe hits a 401', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const manual = await seed.createChannel({ base_url: first.url, models: 'fo-model', status: 2 });
    first.handler = () => ({ status: 401, json: { error: { message: 'invalid_api_key' } } });
    const response = await root.get(`/api/channel/test/${manual}`).expect(200);
    expect(response.body).toMatchObject({ success: false, time: expect.any(Number) });
    expect((await seed.channel(manual)).status).toBe(2);
  });

  it('relays through Azure OpenAI with its deployment URL, api-version and api-key', async () => {
    await seed.createChannel({ type: 3, base_url: first.url, models: 'gpt-4o', key: 'azure-key-1', other: '' });
    await chat(client, 'gpt-4o');
    const sent = first.requests[0];
    expect(sent.path).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe('azure-key-1');
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('probes a channel and fetches upstream model lists (admin only)', async () => {
    const id = await seed.createChannel({ base_url: first.url, models: 'fo-model', test_model: 'fo-model' });
    const test = await root.get(`/api/channel/test/${id}`).expect(200);
    expect(test.body).toMatchObject({ success: true, time: expect.any(Number) });
    const stored = await seed.channel(id);
    expect(stored.test_time).toBeGreaterThan(0);
    expect(first.requests[0].body).toMatchObject({ model: 'fo-model' });

    const models = await root.get(`/api/channel/fetch_models/${id}`).expect(200);
    expect(models.body).toMatchObject({ success: true, data: ['gpt-4o-mini', 'gpt-4o'] });
    const typed = await root.post('/api/channel/fetch_models', { base_url: second.url, type: 1, key: 'sk-typed' }).expect(200);
    expect(typed.body.data).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(second.requests[0].headers.authorization).toBe('Bearer sk-typed');

    const all = await root.get('/api/channel/test').expect(200);
    expect(all.body.success).toBe(true);

    expect((await alice.get(`/api/channel/test/${id}`)).status).toBe(403);
    expect((await alice.post('/api/channel/fetch_models', { base_url: second.url, type: 1, key: 'k' })).status).toBe(403);
  });
});
