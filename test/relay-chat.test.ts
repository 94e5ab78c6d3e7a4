import OpenAI, { APIError } from 'openai';
import { countTokens } from 'gpt-tokenizer/cjs/encoding/o200k_base';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MOCK_REPLY_TEXT, MOCK_USAGE, MockUpstream, chatCompletion, chatStreamEvents } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

/** Prices used throughout: at QuotaPerUnit 500000 a ratio r costs r quota per token. */
const PRICES = {
  ModelRatio: { 'test-model': 2, 'gpt-4o-mini': 0.5, 'embed-model': 1, 'mapped-model': 1 },
  CompletionRatio: { 'test-model': 3 },
  CacheRatio: { 'test-model': 0.5 },
  ModelPrice: { 'fixed-model': 0.01 },
  GroupRatio: { default: 1, vip: 2 },
};

describe('relay: chat, streaming, billing', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let alice: Session;
  let token: { id: number; key: string; apiKey: string };
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    ({ app, upstream, seed } = await startRelayTestbed());
    alice = await registerUser(app, 'alice');
    for (const [key, value] of Object.entries(PRICES)) await seed.setOption(key, JSON.stringify(value));
    await seed.setUserQuota(alice.id, 10_000_000);
    token = await seed.createToken(alice.id, { remain_quota: 5_000_000 });
    channelId = await seed.createChannel({ name: 'primary', base_url: upstream.url, models: 'test-model,gpt-4o-mini,embed-model,fixed-model,mapped-model', key: 'sk-upstream-secret-1' });
    client = openaiClient(app, token.apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });
  beforeEach(() => upstream.reset());

  it('relays a non-streamed chat completion and bills it by the formula', async () => {
    const before = await seed.userQuota(alice.id);
    const answer = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(answer.usage).toMatchObject(MOCK_USAGE);

    const sent = upstream.requests[0];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-secret-1');
    expect(sent.body).toMatchObject({ model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }] });

    await seed.flush();
    // (12 prompt + 7 completion × 3) × ratio 2 × group 1 = 66
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-1);
    expect(log).toMatchObject({ quota: 66, prompt_tokens: 12, completion_tokens: 7, model_name: 'test-model', channel_id: channelId, token_name: expect.any(String), group: 'default' });
    expect(log.other).toMatchObject({ model_ratio: 2, completion_ratio: 3, group_ratio: 1, is_model_mapped: false, admin_info: { use_channel: [channelId] } });
    const after = await seed.userQuota(alice.id);
    expect(before.quota - after.quota).toBe(66);
    expect(after.request_count - before.request_count).toBe(1);
    expect((await seed.channel(channelId)).used_quota).toBeGreaterThanOrEqual(66);
  });

  it("sends the client's bytes as they are when the channel changes nothing, and rewrites them when it does", async () => {
    const send = (body: string) =>
      fetch(`${app.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' }, body });
    const untouched = '{ "model": "test-model",\n  "messages": [{"role": "user", "content": "héllo"}], "x_vendor_flag": 1 }';
    expect((await send(untouched)).status).toBe(200);
    expect(upstream.requests[0].raw.toString('utf8')).toBe(untouched);

    // A stream gains only the usage request: appended to the client's bytes, which stay as they were.
    const streamed = '{ "model": "test-model", "stream": true,\n  "messages": [{"role": "user", "content": "héllo"}] }';
    const streamedAnswer = await send(streamed);
    expect(streamedAnswer.status).toBe(200);
    await streamedAnswer.text();
    expect(upstream.requests[1].raw.toString('utf8')).toBe(streamed.slice(0, -1) + ',"stream_options":{"include_usage":true}}');

    // A chat's group field is ours, not the provider's: the body is rewritten without it.
    expect((await send('{"model": "test-model", "group": "default", "messages": [{"role": "user", "content": "x"}]}')).status).toBe(200);
    expect(upstream.requests[2].body).toEqual({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] });
  });

  it('streams chunk by chunk, asks for usage, and bills the reported usage', async () => {
    const stream = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      // The common client loop: every chunk it gets has a choice (the usage chunk it did not ask for is billed, then dropped).
      text += chunk.choices[0].delta.content ?? '';
    }
    expect(text).toBe(MOCK_REPLY_TEXT);
    expect(chunks).toBeGreaterThan(3);
    expect(upstream.requests[0].body.stream_options).toEqual({ include_usage: true });

    const asked = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
    const usages = [];
    for await (const chunk of asked) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toEqual([expect.objectContaining(MOCK_USAGE)]);
    await seed.flush();
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-2);
    expect(log).toMatchObject({ quota: 66, prompt_tokens: 12, completion_tokens: 7 });
    expect(Boolean(log.is_stream)).toBe(true);
    expect(log.other.frt).toEqual(expect.any(Number));
  });

  it('counts tokens with the real tokenizer when the upstream reports no usage', async () => {
    upstream.handler = (request) => ({ sse: chatStreamEvents(String(request.body.model), MOCK_REPLY_TEXT, null) });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Count me' }], stream: true });
    for await (const chunk of stream) void chunk;
    await seed.flush();
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-1);
    expect(log.completion_tokens).toBe(countTokens(MOCK_REPLY_TEXT));
    // 3 framing tokens per message + role + content, plus 3 priming tokens.
    expect(log.prompt_tokens).toBe(3 + 3 + countTokens('user') + countTokens('Count me'));
    expect(log.quota).toBe(Math.max(1, Math.round((Number(log.prompt_tokens) + Number(log.completion_tokens)) * 0.5)));
  });

  it('bills cached prompt tokens at the cache ratio, group ratios, and fixed prices', async () => {
    await seed.setOption('GroupRatio', JSON.stringify({ default: 1.5, vip: 2 }));
    upstream.handler = (request) => ({ status: 200, json: chatCompletion(String(request.body.model), 'ok', { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 40 } }) });
    await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] });
    await client.chat.completions.create({ model: 'fixed-model', messages: [{ role: 'user', content: 'x' }] });
    await seed.setOption('GroupRatio', JSON.stringify(PRICES.GroupRatio));
    await seed.flush();
    const [cached, fixed] = (await seed.consumeLogs({ tokenId: token.id })).slice(-2);
    // (100 − 40 + 40 × 0.5 + 10 × 3) × 2 × 1.5 = 330
    expect(cached).toMatchObject({ quota: 330 });
    expect(cached.other).toMatchObject({ cache_tokens: 40, cache_ratio: 0.5, group_ratio: 1.5 });
    // $0.01 × 500000 × 1.5 = 7500
    expect(fixed).toMatchObject({ quota: 7500 });
    expect(fixed.other).toMatchObject({ model_price: 0.01 });
  });

  it('relays embeddings', async () => {
    const embedding = await client.embeddings.create({ model: 'embed-model', input: 'hello', encoding_format: 'float' });
    expect(embedding.data[0].embedding).toEqual([0.1, 0.2, 0.3]);
    expect(upstream.requests[0].path).toBe('/v1/embeddings');
    await seed.flush();
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-1);
    expect(log).toMatchObject({ model_name: 'embed-model', prompt_tokens: 8, completion_tokens: 0, quota: 8 });
  });

  it('lists only the models the token may use', async () => {
    const all = await client.models.list();
    expect(all.data.map((model) => model.id)).toEqual(['embed-model', 'fixed-model', 'gpt-4o-mini', 'mapped-model', 'test-model']);
    const limited = await seed.createToken(alice.id, { model_limits_enabled: true, model_limits: 'test-model,not-served' });
    const models = await openaiClient(app, limited.apiKey).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['test-model']);
    const refused = await openaiClient(app, limited.apiKey).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('refuses every kind of bad token with an OpenAI-shaped error', async () => {
    const call = async (apiKey: string) => {
      const response = await fetch(`${app.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] }),
      });
      return { status: response.status, body: (await response.json()) as { error: { message: string; type: string; code: string } } };
    };
    const unknown = await call('sk-doesnotexist');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_api_key', type: expect.any(String), message: expect.any(String) });
    const missing = await fetch(`${app.baseUrl}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);

    const disabled = await seed.createToken(alice.id, { status: 2 });
    expect((await call(disabled.apiKey)).body.error.code).toBe('token_disabled');
    const expired = await seed.createToken(alice.id, { expired_time: 1000 });
    expect((await call(expired.apiKey)).body.error.code).toBe('token_expired');
    const exhausted = await seed.createToken(alice.id, { remain_quota: 0 });
    expect(await call(exhausted.apiKey)).toMatchObject({ status: 403, body: { error: { code: 'token_quota_exhausted' } } });
    const elsewhere = await seed.createToken(alice.id, { allow_ips: '10.0.0.0/8\n192.168.1.1' });
    expect(await call(elsewhere.apiKey)).toMatchObject({ status: 403, body: { error: { code: 'ip_not_allowed' } } });
    const local = await seed.createToken(alice.id, { allow_ips: '127.0.0.0/8' });
    expect((await call(local.apiKey)).status).toBe(200);
    const limited = await seed.createToken(alice.id, { model_limits_enabled: true, model_limits: 'gpt-4o-mini' });
    expect((await call(limited.apiKey)).body.error.code).toBe('model_not_allowed');
    const unlimited = await seed.createToken(alice.id, { remain_quota: 0, unlimited_quota: true });
    expect((await call(unlimited.apiKey)).status).toBe(200);

    const bob = await registerUser(app, 'bob-banned');
    await seed.setUserQuota(bob.id, 1_000_000);
    const bobToken = await seed.createToken(bob.id);
    expect((await call(bobToken.apiKey)).status).toBe(200);
    await seed.setUserQuota(bob.id, 1_000_000, { status: 2 });
    expect(await call(bobToken.apiKey)).toMatchObject({ status: 403, body: { error: { code: 'user_banned' } } });
    await seed.setUserQuota(bob.id, 1_000_000, { status: 1, deleted_at: new Date() });
    expect(await call(bobToken.apiKey)).toMatchObject({ status: 401, body: { error: { code: 'user_banned' } } });
  });

  it('refuses unpriced models unless self-use mode is on, and unserved models', async () => {
    await seed.createChannel({ base_url: upstream.url, models: 'unpriced-model' });
    const refused = await client.chat.completions.create({ model: 'unpriced-model', messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as APIError).code).toBe('model_price_not_set');
    await seed.setOption('SelfUseModeEnabled', true);
    await client.chat.completions.create({ model: 'unpriced-model', messages: [{ role: 'user', content: 'x' }] });
    await seed.setOption('SelfUseModeEnabled', false);
    const unserved = await client.chat.completions.create({ model: 'nobody-serves-this', messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
    expect(unserved).toBeInstanceOf(OpenAI.NotFoundError);
    expect((unserved as APIError).code).toBe('model_not_found');
    await seed.createChannel({ base_url: upstream.url, models: 'idle-model', status: 2 });
    const unavailable = await client.chat.completions.create({ model: 'idle-model', messages: [{ role: 'user', content: 'x' }] }).catch((error: unknown) => error);
    expect((unavailable as APIError).status).toBe(503);
    expect((unavailable as APIError).code).toBe('no_available_channel');
  });

  it('maps the model name upstream but bills and logs the requested one', async () => {
    const mappedChannel = await seed.createChannel({ name: 'mapping', base_url: upstream.url, models: 'alias-model', model_mapping: JSON.stringify({ 'alias-model': 'test-model' }), param_override: JSON.stringify({ temperature: 0.25 }) });
    await seed.setOption('ModelRatio', JSON.stringify({ ...PRICES.ModelRatio, 'alias-model': 1 }));
    await client.chat.completions.create({ model: 'alias-model', messages: [{ role: 'user', content: 'x' }], temperature: 1 });
    expect(upstream.requests[0].body).toMatchObject({ model: 'test-model', temperature: 0.25 });
    await seed.flush();
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-1);
    // Billed as alias-model: (12 + 7 × 1) × 1 = 19.
    expect(log).toMatchObject({ model_name: 'alias-model', channel_id: mappedChannel, quota: 19 });
    expect(log.other).toMatchObject({ is_model_mapped: true, upstream_model_name: 'test-model' });
  });

  it('refuses a body past the size limit with 413', async () => {
    const small = await startTestApp({ MAX_REQUEST_BODY_MB: '1' });
    try {
      const response = await fetch(`${small.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-whatever', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'a'.repeat(1_100_000) }] }),
      });
      expect(response.status).toBe(401);
      const root = await setupRoot(small);
      const token2 = await new RelaySeed(small).createToken(root.id);
      const big = await fetch(`${small.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token2.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'a'.repeat(1_100_000) }] }),
      });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    } finally {
      await small.stop();
    }
  });

  it('serves the playground with the session, billing the user under token id 0', async () => {
    const response = await fetch(`${app.baseUrl}/pg/chat/completions`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'new-api-user': String(alice.id), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', group: 'default', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('[DONE]');
    await seed.flush();
    const [log] = (await seed.consumeLogs({ userId: alice.id })).slice(-1);
    expect(log).toMatchObject({ token_id: 0, token_name: 'playground', quota: 66 });

    const wrongUser = await fetch(`${app.baseUrl}/pg/chat/completions`, {
      method: 'POST',
      headers: { cookie: alice.cookie, 'new-api-user': '999', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(wrongUser.status).toBe(401);

    // Only a group UserUsableGroups lists: names an object inherits (toString, constructor) are not groups.
    for (const group of ['toString', 'constructor', 'no-such-group']) {
      const refused = await fetch(`${app.baseUrl}/pg/chat/completions`, {
        method: 'POST',
        headers: { cookie: alice.cookie, 'new-api-user': String(alice.id), 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-model', group, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect({ group, status: refused.status, code: ((await refused.json()) as { error: { code: string } }).error.code }).toEqual({ group, status: 403, code: 'group_not_allowed' });
    }
  });
});
