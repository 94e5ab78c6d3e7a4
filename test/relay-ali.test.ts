import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Session } from './support/accounts';
import { DASHSCOPE_KEY, DASHSCOPE_REPLY_TEXT, dashScopeReply, WEATHER_CALL } from './support/mock-dashscope';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. The native API reports 30 input
 * tokens (8 cached) and 10 output: (30 − 8) + 8 × 0.25 + 10 × 2 = 44 quota. The compatible
 * mode reports 15 prompt and 5 completion tokens: 15 + 5 × 2 = 25 quota.
 */
const NATIVE_QUOTA = 44;
const COMPATIBLE_QUOTA = 25;
const PRICES = {
  ModelRatio: { 'qwen-test': 1, 'qwen-compat': 1, 'qwen-broken': 1, 'qwen-arrears': 1, 'qwen-compat-arrears': 1, 'text-embedding-v3': 1, 'compat-embed': 1, 'gpt-test': 1 },
  CompletionRatio: { 'qwen-test': 2, 'qwen-compat': 2 },
  CacheRatio: { 'qwen-test': 0.25 },
};

describe('relay: Alibaba Qwen channels (type 17): DashScope native and compatible mode', () => {
  let app: TestApp;
  let dashscope: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let lastLog: NativeRelayTestbed['lastLog'];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, native: dashscope, seed, root, token, openai, lastLog, stop } = await startNativeRelayTestbed(PRICES));
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    await seed.createChannel({ name: 'qwen-native', type: 17, base_url: dashscope.url, models: 'qwen-test,text-embedding-v3', key: DASHSCOPE_KEY });
    await seed.createChannel({ name: 'qwen-compatible', type: 17, base_url: `${dashscope.url}/compatible-mode/v1`, models: 'qwen-compat,compat-embed', key: DASHSCOPE_KEY });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    dashscope.reset();
    dashscope.handler = dashScopeReply;
    await seed.flush();
  });

  function expectNoSecret(error: unknown): void {
    const text = JSON.stringify(error) + String((error as Error).message);
    expect(text).not.toContain(DASHSCOPE_KEY);
    expect(text).not.toContain(token.key);
  }

  describe('native: text-generation and text-embedding, converted', () => {
    it('converts a chat into input and parameters, and bills the usage (cached tokens included) exactly', async () => {
      const answer = await openai.chat.completions.create({ model: 'qwen-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], max_tokens: 50, top_p: 1 });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: DASHSCOPE_REPLY_TEXT }, finish_reason: 'stop' });
      expect(answer.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 8 } });
      const sent = dashscope.requests[0];
      expect(sent.path).toBe('/api/v1/services/aigc/text-generation/generation');
      expect(sent.headers.authorization).toBe(`Bearer ${DASHSCOPE_KEY}`);
      expect(sent.headers['x-dashscope-sse']).toBeUndefined();
      expect(sent.body).toEqual({
        model: 'qwen-test',
        input: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] },
        parameters: { result_format: 'message', max_tokens: 50, top_p: 0.999 },
      });
      const log = await lastLog();
      expect(log).toMatchObject({ quota: NATIVE_QUOTA, prompt_tokens: 30, completion_tokens: 10 });
      expect(log.other).toMatchObject({ cache_tokens: 8 });
    });

    it('streams with X-DashScope-SSE and incremental output, as OpenAI chunks billed from the last running total', async () => {
      const stream = await openai.chat.completions.create({ model: 'qwen-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      const usages = [];
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usages.push(chunk.usage);
      }
      expect(text).toBe(DASHSCOPE_REPLY_TEXT);
      expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 30, completion_tokens: 10 })]);
      expect(dashscope.requests[0].headers['x-dashscope-sse']).toBe('enable');
      expect(dashscope.requests[0].body).toMatchObject({ parameters: { incremental_output: true } });
      expect(await lastLog()).toMatchObject({ quota: NATIVE_QUOTA, prompt_tokens: 30, completion_tokens: 10 });
    });

    it('passes tools and reads the tool call back, for OpenAI and Claude clients', async () => {
      const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
      const answer = await openai.chat.completions.create({ model: 'qwen-test', messages: [{ role: 'user', content: 'Weather?' }], tools: [{ type: 'function', function: weather }] });
      expect(dashscope.requests[0].body).toMatchObject({ parameters: { tools: [{ type: 'function', function: weather }] } });
      expect(answer.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: null, tool_calls: [WEATHER_CALL] } });

      const anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
      const message = await anthropic.messages.create({ model: 'qwen-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(message.content).toEqual([{ type: 'text', text: DASHSCOPE_REPLY_TEXT }]);
      expect(await lastLog()).toMatchObject({ quota: NATIVE_QUOTA });
    });

    it('embeds through text-embedding, billing its total tokens as input', async () => {
      const result = await openai.embeddings.create({ model: 'text-embedding-v3', input: ['one', 'two'], encoding_format: 'float' });
      expect(result.data.map((entry) => entry.embedding)).toEqual([[0, 0.25], [1, 0.25]]);
      expect(dashscope.requests[0].path).toBe('/api/v1/services/embeddings/text-embedding/text-embedding');
      expect(dashscope.requests[0].body).toEqual({ model: 'text-embedding-v3', input: { texts: ['one', 'two'] } });
      expect(await lastLog()).toMatchObject({ quota: 6, prompt_tokens: 6 });
    });
  });

  describe('compatible mode: OpenAI-style, bytes passed through', () => {
    it('passes the client’s bytes to …/compatible-mode/v1/chat/completions and bills the usage', async () => {
      const answer = await openai.chat.completions.create({ model: 'qwen-compat', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0].message.content).toBe(DASHSCOPE_REPLY_TEXT);
      const sent = dashscope.requests[0];
      expect(sent.path).toBe('/compatible-mode/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${DASHSCOPE_KEY}`);
      expect(sent.raw.toString('utf8')).toBe(JSON.stringify({ model: 'qwen-compat', messages: [{ role: 'user', content: 'hi' }] }));
      expect(await lastLog()).toMatchObject({ quota: COMPATIBLE_QUOTA, prompt_tokens: 15, completion_tokens: 5 });
    });

    it('streams, asking for the usage chunk the client did not ask for, and keeping it from the client', async () => {
      const stream = await openai.chat.completions.create({ model: 'qwen-compat', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      let usageChunks = 0;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usageChunks++;
      }
      expect(text).toBe(DASHSCOPE_REPLY_TEXT);
      expect(usageChunks).toBe(0);
      expect(dashscope.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(await lastLog()).toMatchObject({ quota: COMPATIBLE_QUOTA });
    });

    it('embeds through /compatible-mode/v1/embeddings, and lists models for both modes', async () => {
      const result = await openai.embeddings.create({ model: 'compat-embed', input: 'one', encoding_format: 'float' });
      expect(result.data[0].embedding).toEqual([0.5, 0.5]);
      expect(dashscope.requests[0].path).toBe('/compatible-mode/v1/embeddings');
      expect(await lastLog()).toMatchObject({ quota: 4 });

      const listed = (await root.post('/api/channel/fetch_models').send({ type: 17, key: DASHSCOPE_KEY, base_url: dashscope.url }).expect(200)).body.data;
      expect(listed).toEqual(['qwen-plus', 'qwen-max']);
      expect(dashscope.requests[1].path).toBe('/compatible-mode/v1/models');
    });
  });

  it('disables a channel on InvalidApiKey (401) and on Arrearage (400), in either mode, showing no secret', async () => {
    const broken = await seed.createChannel({ name: 'qwen-broken', type: 17, base_url: dashscope.url, models: 'qwen-broken', key: 'sk-revoked-dashscope-key' });
    const refused = await openai.chat.completions.create({ model: 'qwen-broken', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
    expectNoSecret(refused);
    expect(String((refused as Error).message)).not.toContain('sk-revoked-dashscope-key');
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);

    const arrears = await seed.createChannel({ name: 'qwen-arrears', type: 17, base_url: dashscope.url, models: 'qwen-arrears', key: DASHSCOPE_KEY });
    dashscope.handler = () => ({ status: 400, json: { code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.', request_id: 'r-1' } });
    const exhausted = await openai.chat.completions.create({ model: 'qwen-arrears', messages: [{ role: 'user', content: 'hi' }], stream: true }).catch((error: unknown) => error);
    expect(exhausted).toMatchObject({ status: 502 });
    expectNoSecret(exhausted);
    expect(await seed.channelStatusEventually(arrears, 3)).toBe(3);

    const compatibleArrears = await seed.createChannel({ name: 'qwen-compat-arrears', type: 17, base_url: `${dashscope.url}/compatible-mode/v1`, models: 'qwen-compat-arrears', key: DASHSCOPE_KEY });
    dashscope.handler = () => ({ status: 400, json: { error: { code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.', type: 'Arrearage' }, request_id: 'r-2' } });
    await openai.chat.completions.create({ model: 'qwen-compat-arrears', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(await seed.channelStatusEventually(compatibleArrears, 3)).toBe(3);
  });

  it('passes a request error through with DashScope’s code', async () => {
    dashscope.handler = () => ({ status: 400, json: { code: 'InvalidParameter', message: 'Range of max_tokens should be [1, 8192]', request_id: 'r-3' } });
    const refused = await openai.chat.completions.create({ model: 'qwen-test', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100000 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'InvalidParameter' });
    expect(String((refused as Error).message)).toContain('Range of max_tokens');
  });
});
