import type http from 'node:http';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { anthropicReply, CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { chatCompletion, MOCK_REPLY_TEXT, MockUpstream, type MockHandler, type ReceivedRequest } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { LoopbackServer } from './support/loopback-server';
import { startTestApp, type TestApp } from './support/test-app';
import { until } from './support/until';

/** RELAY_TIMEOUT of this file's gateway: the budget test waits about this long, every other call answers at once. */
const RELAY_TIMEOUT_SECONDS = 3;
const FALLBACK_HEADER = 'x-gateway-fallback-model';

/** An OpenAI upstream whose stream sends one chunk and then drops the connection. */
class BrokenStreamUpstream extends LoopbackServer {
  requests = 0;

  protected serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = { id: 'chatcmpl-broken', object: 'chat.completion.chunk', created: 0, model: 'fb-a', choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ' }, finish_reason: null }] };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    setTimeout(() => res.socket?.destroy(), 100);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers `failing` models with `reply`, everything else as the mock's default (OpenAI's or, with `claude`, Anthropic's). */
function failingModels(failing: Record<string, ReturnType<MockHandler>>, claude = false): MockHandler {
  return (request: ReceivedRequest) => {
    const reply = failing[String(request.body.model)];
    if (reply) return reply;
    return claude ? anthropicReply(request) : undefined;
  };
}

describe('model fallback chains', () => {
  let app: TestApp;
  let openai: MockUpstream;
  let claude: MockUpstream;
  let broken: BrokenStreamUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let token: { id: number; key: string; apiKey: string };

  beforeAll(async () => {
    openai = await new MockUpstream().start();
    claude = await new MockUpstream().start();
    broken = await new BrokenStreamUpstream().start();
    app = await startTestApp({ RELAY_TIMEOUT: String(RELAY_TIMEOUT_SECONDS) });
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    // B costs three times A: a call billed at A's price would show.
    await seed.setOption('ModelRatio', JSON.stringify({ 'fb-a': 1, 'fb-b': 3, 'fb-c': 2, 'fb-d': 1 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'fb-a': 1, 'fb-b': 1, 'fb-c': 1, 'fb-d': 1 }));
    await seed.setOption('RetryTimes', 2);
    await seed.setUserQuota(alice.id, 100_000_000);
    token = await seed.createToken(alice.id, { remain_quota: 50_000_000 });
  });
  afterAll(async () => {
    await app.stop();
    await openai.stop();
    await claude.stop();
    await broken.stop();
  });
  beforeEach(async () => {
    openai.reset();
    claude.reset();
    claude.handler = anthropicReply;
    await seed.deleteAllChannels();
    await seed.setOption('ModelFallbacks', JSON.stringify({ 'fb-a': ['fb-b'] }));
    await seed.updateToken(token.key, { model_fallbacks: null });
  });

  const post = (path: string, body: object, apiKey = token.apiKey) =>
    fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const chat = (model: string, extra: object = {}) => post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hello there' }], max_tokens: 50, ...extra });
  const modelsCalled = (upstream: MockUpstream) => upstream.requests.map((request) => request.body.model);
  const lastLog = async () => {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).at(-1)!;
  };

  /** Model A on two OpenAI channels that both answer 500, B on an Anthropic channel. */
  async function failingAWithClaudeB(): Promise<{ a: number[]; b: number }> {
    const a = [await seed.createChannel({ name: 'a-1', base_url: openai.url, models: 'fb-a', priority: 5 }), await seed.createChannel({ name: 'a-2', base_url: openai.url, models: 'fb-a' })];
    const b = await seed.createChannel({ name: 'b-claude', type: CHANNEL_TYPE.ANTHROPIC, base_url: claude.url, models: 'fb-b', key: 'sk-ant-upstream' });
    openai.handler = failingModels({ 'fb-a': { status: 500, json: { error: { message: 'a is down' } } } });
    return { a, b };
  }

  it('answers from B on an Anthropic channel when every channel of A fails, converted for a chat client, billed at B and logged with both models', async () => {
    const { a, b } = await failingAWithClaudeB();
    const before = await seed.tokenQuota(token.id);
    const response = await chat('fb-a');
    expect(response.status).toBe(200);
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-b');
    const answer = (await response.json()) as { model: string; choices: { message: { content: string } }[] };
    expect(answer.model).toBe('fb-b');
    expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
    // The usual retries first: both channels of A, then B once, asked for B.
    expect(modelsCalled(openai)).toEqual(['fb-a', 'fb-a']);
    expect(modelsCalled(claude)).toEqual(['fb-b']);

    const log = await lastLog();
    expect(log).toMatchObject({ model_name: 'fb-b', channel_id: b });
    expect(log.other).toMatchObject({ requested_model: 'fb-a', fallback_model: 'fb-b' });
    expect((log.other.admin_info as { use_channel: number[] }).use_channel).toEqual([...a, b]);
    expect(before.remain_quota - (await seed.tokenQuota(token.id)).remain_quota).toBe(log.quota);

    // The same call asked of B directly costs the same: the fallback was billed at B's price, not A's (a third of it).
    const direct = await chat('fb-b');
    expect(direct.status).toBe(200);
    expect(direct.headers.get(FALLBACK_HEADER)).toBeNull();
    const directLog = await lastLog();
    expect(directLog.other.requested_model).toBeUndefined();
    expect(log.quota).toBe(directLog.quota);
    expect(log.quota).toBeGreaterThan(0);
  });

  it.each([
    ['Claude /v1/messages', '/v1/messages', { model: 'fb-a', max_tokens: 50, messages: [{ role: 'user', content: 'hello there' }] }, (body: any) => [body.model, body.content[0].text]],
    ['Gemini generateContent', '/v1beta/models/fb-a:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] }, (body: any) => [body.modelVersion, body.candidates[0].content.parts[0].text]],
  ])('falls back for a %s client, from an Anthropic channel to an OpenAI one', async (_name, path, body, read) => {
    await seed.createChannel({ name: 'a-claude', type: CHANNEL_TYPE.ANTHROPIC, base_url: claude.url, models: 'fb-a', key: 'sk-ant-upstream' });
    await seed.createChannel({ name: 'b-openai', base_url: openai.url, models: 'fb-b' });
    claude.handler = failingModels({ 'fb-a': { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } }, true);
    const response = await post(path, body);
    expect(response.status).toBe(200);
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-b');
    expect(read(await response.json())).toEqual(['fb-b', MOCK_REPLY_TEXT]);
    expect(modelsCalled(claude)).toEqual(['fb-a']);
    expect(modelsCalled(openai)).toEqual(['fb-b']);
    expect((await lastLog()).other).toMatchObject({ requested_model: 'fb-a', fallback_model: 'fb-b' });
  });

  it('falls back for a Responses client, from OpenAI channels to an Anthropic one', async () => {
    await failingAWithClaudeB();
    const response = await post('/v1/responses', { model: 'fb-a', input: 'hello there', max_output_tokens: 50 });
    expect(response.status).toBe(200);
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-b');
    const answer = (await response.json()) as { model: string; output: { content: { text: string }[] }[] };
    expect([answer.model, answer.output.at(-1)!.content[0].text]).toEqual(['fb-b', CLAUDE_REPLY_TEXT]);
    expect(modelsCalled(openai).every((model) => model === 'fb-a')).toBe(true);
    expect(modelsCalled(claude)).toEqual(['fb-b']);
  });

  it('falls back for a stream that failed before its first byte, and names B in the stream', async () => {
    await failingAWithClaudeB();
    openai.handler = failingModels({ 'fb-a': { status: 503, json: { error: { message: 'a is overloaded' } } } });
    const response = await chat('fb-a', { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-b');
    const text = await response.text();
    expect(text).toContain('"model":"fb-b"');
    expect(text).toContain('data: [DONE]');
    expect(modelsCalled(claude)).toEqual(['fb-b']);
  });

  it('falls back when every channel of A is disabled already', async () => {
    await seed.createChannel({ name: 'a-off', base_url: openai.url, models: 'fb-a', status: 3 });
    await seed.createChannel({ name: 'b', base_url: openai.url, models: 'fb-b' });
    const response = await chat('fb-a');
    expect(response.status).toBe(200);
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-b');
    expect(modelsCalled(openai)).toEqual(['fb-b']);
  });

  it("uses the token's own list instead of the setting's", async () => {
    await failingAWithClaudeB();
    await seed.createChannel({ name: 'c', base_url: openai.url, models: 'fb-c' });
    await seed.updateToken(token.key, { model_fallbacks: 'fb-c' });
    const response = await chat('fb-a');
    expect(response.headers.get(FALLBACK_HEADER)).toBe('fb-c');
    expect(modelsCalled(openai)).toEqual(['fb-a', 'fb-a', 'fb-c']);
    expect(claude.requests).toHaveLength(0);
  });

  it('does not fall back on the client’s 400, nor on a content refusal of any status', async () => {
    await failingAWithClaudeB();
    openai.handler = failingModels({ 'fb-a': { status: 400, json: { error: { message: 'messages must not be empty', type: 'invalid_request_error', code: 'bad_messages' } } } });
    const refused = await chat('fb-a');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('bad_messages');

    openai.handler = failingModels({ 'fb-a': { status: 400, json: { error: { message: 'Your request was rejected by our safety system', type: 'invalid_request_error', code: 'content_policy_violation' } } } });
    expect((await chat('fb-a')).status).toBe(400);
    // A refusal some providers send as a server error: still the content's fault, so the same answer from the next model is not sought.
    openai.handler = failingModels({ 'fb-a': { status: 500, json: { error: { message: "The response was filtered due to the prompt triggering the content management policy" } } } });
    const filtered = await chat('fb-a');
    expect(filtered.status).toBe(500);
    expect(filtered.headers.get(FALLBACK_HEADER)).toBeNull();

    // A refusal inside a successful answer is an answer.
    openai.handler = failingModels({ 'fb-a': { status: 200, json: { ...chatCompletion('fb-a', ''), choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }] } } });
    expect((await chat('fb-a')).status).toBe(200);
    expect(claude.requests).toHaveLength(0);
  });

  it('never falls back once a stream has sent bytes', async () => {
    await seed.createChannel({ name: 'a-broken', base_url: broken.url, models: 'fb-a' });
    await seed.createChannel({ name: 'b', type: CHANNEL_TYPE.ANTHROPIC, base_url: claude.url, models: 'fb-b', key: 'sk-ant-upstream' });
    const response = await chat('fb-a', { stream: true });
    expect(response.headers.get(FALLBACK_HEADER)).toBeNull();
    const text = await response.text().catch(() => '');
    expect(text).toContain('Half an ');
    expect(broken.requests).toBe(1);
    expect(claude.requests).toHaveLength(0);
  });

  it('answers the last error when the chain runs out, trying each model once', async () => {
    await seed.setOption('ModelFallbacks', JSON.stringify({ 'fb-a': ['fb-b', 'fb-unpriced', 'fb-c'] }));
    await failingAWithClaudeB();
    await seed.createChannel({ name: 'c', base_url: openai.url, models: 'fb-c,fb-unpriced' });
    claude.handler = failingModels({ 'fb-b': { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'b is overloaded' } } } }, true);
    openai.handler = failingModels({
      'fb-a': { status: 500, json: { error: { message: 'a is down' } } },
      'fb-c': { status: 429, json: { error: { message: 'c is rate limited' } } },
    });
    await seed.flush();
    const logsBefore = (await seed.consumeLogs({ tokenId: token.id })).length;
    const response = await chat('fb-a');
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('c is rate limited');
    // A model the caller cannot be billed for (no price) is passed over.
    expect(modelsCalled(openai)).toEqual(['fb-a', 'fb-a', 'fb-c']);
    expect(modelsCalled(claude)).toEqual(['fb-b']);
    await seed.flush();
    expect(await seed.consumeLogs({ tokenId: token.id })).toHaveLength(logsBefore);
  });

  it('holds quota at the fallback model’s price while it answers, and gives back the first hold', async () => {
    await seed.createChannel({ name: 'a', base_url: openai.url, models: 'fb-a' });
    await seed.createChannel({ name: 'b', type: CHANNEL_TYPE.ANTHROPIC, base_url: claude.url, models: 'fb-b', key: 'sk-ant-upstream' });
    openai.handler = failingModels({ 'fb-a': { status: 502, json: { error: { message: 'bad gateway' } } } });
    claude.handler = async (request) => {
      await sleep(700);
      return anthropicReply(request);
    };
    /** What the token has held while B's channel is answering. */
    const heldWhileAnswering = async (model: string) => {
      await seed.flush();
      const start = (await seed.tokenQuota(token.id)).remain_quota;
      const called = claude.requests.length;
      const answer = chat(model, { max_tokens: 1000 });
      await until(() => claude.requests.length > called);
      await seed.flush();
      const held = start - (await seed.tokenQuota(token.id)).remain_quota;
      expect((await answer).status).toBe(200);
      return held;
    };
    const direct = await heldWhileAnswering('fb-b');
    const fallback = await heldWhileAnswering('fb-a');
    expect(fallback).toBe(direct);
    // A's hold was a third of B's: the hold was sized again, not kept.
    expect(direct).toBeGreaterThan(1000);
  });

  it('runs the whole chain within one RELAY_TIMEOUT', async () => {
    await seed.createChannel({ name: 'a-slow', base_url: openai.url, models: 'fb-a' });
    await seed.createChannel({ name: 'b-slow', type: CHANNEL_TYPE.ANTHROPIC, base_url: claude.url, models: 'fb-b', key: 'sk-ant-upstream' });
    // A fails after two thirds of the budget; B would answer after as long again, past the budget.
    openai.handler = failingModels({ 'fb-a': { status: 500, json: { error: { message: 'a is down' } }, delayMs: 2_000 } });
    claude.handler = async (request) => {
      await sleep(2_000);
      return anthropicReply(request);
    };
    const started = Date.now();
    const response = await chat('fb-a');
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    expect(claude.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(RELAY_TIMEOUT_SECONDS * 1000 - 100);
    expect(elapsed).toBeLessThan(RELAY_TIMEOUT_SECONDS * 1000 + 700);
  });

  it('validates the setting and the token field, and the token editor round-trips the list', async () => {
    const setting = (value: string) => root.put('/api/option/', { key: 'ModelFallbacks', value }).set('Accept-Language', 'en');
    const rule = 'ModelFallbacks must be a JSON object: model → [fallback model, …], at most 10 fallback models each';
    expect((await setting('{"fb-a": "fb-b"}')).body).toMatchObject({ success: false, message: rule });
    expect((await setting('{"fb-a": ["fb-b", ""]}')).body).toMatchObject({ success: false, message: rule });
    expect((await setting(JSON.stringify({ 'fb-a': Array.from({ length: 11 }, (_, index) => `m-${index}`) }))).body).toMatchObject({ success: false, message: rule });
    expect((await setting('{"fb-a": ["fb-b", "fb-c"]}')).body.success).toBe(true);

    const created = await alice.post('/api/token/', { name: 'fb', remain_quota: 1000, model_fallbacks: ['fb-b', ' fb-c ', 'fb-b'] });
    expect(created.body.success).toBe(true);
    const id = (created.body.data as { id: number }[])[0].id;
    expect((await alice.get(`/api/token/${id}`)).body.data.model_fallbacks).toEqual(['fb-b', 'fb-c']);
    expect((await alice.put('/api/token/', { id, model_fallbacks: ['fb-d'] })).body.data.model_fallbacks).toEqual(['fb-d']);
    expect((await alice.put('/api/token/', { id, name: 'fb-renamed' })).body.data.model_fallbacks).toEqual(['fb-d']);
    const tooMany = await alice.put('/api/token/', { id, model_fallbacks: Array.from({ length: 11 }, (_, index) => `m-${index}`) }).set('Accept-Language', 'en');
    expect(tooMany.body).toMatchObject({ success: false, message: 'The fallback models must be a list of at most 10 model names' });
    const notNames = await alice.put('/api/token/', { id, model_fallbacks: [42] }).set('Accept-Language', 'en');
    expect(notNames.body.success).toBe(false);
  });
});
