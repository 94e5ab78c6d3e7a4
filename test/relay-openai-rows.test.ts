import type OpenAI from 'openai';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import type { Session } from './support/accounts';
import { chatCompletion, chatStreamEvents, MOCK_REPLY_TEXT, MOCK_USAGE, type MockReply, type MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

/** One OpenAI-compatible provider as the mock serves it: where its API lives and the key it takes. */
interface ProviderOnMock {
  key: string;
  /** The path OpenAI's /v1 stands for on the provider. */
  root: string;
  /** How the provider refuses a wrong key. */
  refusal: MockReply;
}

const CLOUDFLARE: ProviderOnMock = {
  key: 'cf-api-token-secret',
  root: '/client/v4/accounts/0123abcd/ai/v1',
  refusal: { status: 403, json: { result: null, success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [] } },
};
const VOLCENGINE: ProviderOnMock = { key: 'ark-api-key-secret', root: '/api/v3', refusal: { status: 401, json: { error: { code: 'AuthenticationError', message: 'The API key in the request is missing or invalid.', type: 'Unauthorized' } } } };
const XAI: ProviderOnMock = { key: 'xai-api-key-secret', root: '/v1', refusal: { status: 400, json: { code: 'Client specified an invalid argument', error: 'Incorrect API key provided: xa***et.' } } };
const PERPLEXITY: ProviderOnMock = { key: 'pplx-api-key-secret', root: '', refusal: { status: 401, json: { error: { message: 'Invalid API key', type: 'invalid_api_key', code: 401 } } } };
const PROVIDERS = [CLOUDFLARE, VOLCENGINE, XAI, PERPLEXITY];

const EP_ID = 'ep-20240601123456-abcde';
/** What Ark names in its answers: the model behind the endpoint, never the endpoint id. */
const ARK_MODEL = 'doubao-pro-32k-241215';
const CITATIONS = ['https://example.com/a', 'https://example.com/b'];
const SEARCH_RESULTS = [{ title: 'A', url: 'https://example.com/a', date: '2025-01-01' }];
const PERPLEXITY_USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, search_context_size: 'low', citation_tokens: 40, num_search_queries: 1 };

/** At QuotaPerUnit 500000 and ratio 1 a token costs 1 quota: the mock's usage (12 + 7) costs 19, its embeddings (8) 8; an image $0.002 = 1000. */
const CHAT_QUOTA = MOCK_USAGE.prompt_tokens + MOCK_USAGE.completion_tokens;
const MODELS = ['@cf/meta/llama-3.1-8b-instruct', '@cf/baai/bge-large-en-v1.5', '@cf/openai/gpt-oss-120b', 'doubao-pro', 'doubao-embedding', 'doubao-seedream', 'grok-3', 'sonar', 'cf-no-account'];
const PRICES = { ModelRatio: Object.fromEntries(MODELS.map((model) => [model, 1])), CompletionRatio: Object.fromEntries(MODELS.map((model) => [model, 1])), ModelPrice: { 'grok-2-image': 0.002 } };

/**
 * The providers' OpenAI-compatible APIs on one mock: a request is answered only with a key
 * the mock knows and on that provider's own paths, so a wrong path or header fails the test.
 */
function providersReply(request: ReceivedRequest): MockReply {
  const provider = PROVIDERS.find((candidate) => request.headers.authorization === `Bearer ${candidate.key}`);
  if (!provider) return (PROVIDERS.find((candidate) => request.path.startsWith(`${candidate.root}/`) && candidate.root) ?? PERPLEXITY).refusal;
  if (!request.path.startsWith(`${provider.root}/`)) return { status: 404, json: { error: { message: `no ${request.path} here` } } };
  const endpoint = request.path.slice(provider.root.length);
  const model = String(request.body.model);
  const asked = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  if (endpoint === '/chat/completions' && provider === PERPLEXITY) return perplexityReply(request, model);
  if (endpoint === '/chat/completions') {
    const answered = provider === VOLCENGINE ? ARK_MODEL : model;
    return request.body.stream === true ? { sse: chatStreamEvents(answered, MOCK_REPLY_TEXT, asked ? MOCK_USAGE : null) } : { status: 200, json: chatCompletion(answered, MOCK_REPLY_TEXT) };
  }
  if (endpoint === '/embeddings') return { status: 200, json: { object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [0.5, 0.25] }], usage: { prompt_tokens: 8, total_tokens: 8 } } };
  if (endpoint === '/images/generations') return { status: 200, json: { created: 1700000000, data: [{ url: 'https://imgen.x.ai/xai-imgen/one.jpg', revised_prompt: 'A cat.' }] } };
  if (endpoint === '/responses') {
    return { status: 200, json: { id: 'resp_1', object: 'response', status: 'completed', model, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: MOCK_REPLY_TEXT }] }], usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 } } };
  }
  return { status: 404, json: { error: { message: `no ${endpoint} here` } } };
}

/** Perplexity's answers: citations and search results beside the choices; a stream's last chunk carries usage unasked. */
function perplexityReply(request: ReceivedRequest, model: string): MockReply {
  const extra = { citations: CITATIONS, search_results: SEARCH_RESULTS };
  if (request.body.stream !== true) return { status: 200, json: { ...chatCompletion(model, MOCK_REPLY_TEXT, PERPLEXITY_USAGE), ...extra } };
  const base = { id: 'pplx-1', object: 'chat.completion.chunk', created: 1700000000, model, ...extra };
  return {
    sse: [
      JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello from ' }, finish_reason: null }] }),
      JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'the mock upstream!' }, finish_reason: 'stop' }], usage: PERPLEXITY_USAGE }),
    ],
  };
}

describe('relay: OpenAI-compatible rows (Cloudflare, Volcengine Ark, xAI, Perplexity)', () => {
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: upstream, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    const base = { base_url: upstream.url };
    await seed.createChannel({ ...base, name: 'cloudflare', type: CHANNEL_TYPE.CLOUDFLARE, key: CLOUDFLARE.key, other: '0123abcd', models: '@cf/meta/llama-3.1-8b-instruct,@cf/baai/bge-large-en-v1.5,@cf/openai/gpt-oss-120b' });
    await seed.createChannel({ ...base, name: 'ark', type: CHANNEL_TYPE.VOLCENGINE, key: VOLCENGINE.key, models: 'doubao-pro,doubao-embedding,doubao-seedream', model_mapping: JSON.stringify({ 'doubao-pro': EP_ID }) });
    await seed.createChannel({ ...base, name: 'xai', type: CHANNEL_TYPE.XAI, key: XAI.key, models: 'grok-3,grok-2-image' });
    await seed.createChannel({ ...base, name: 'perplexity', type: CHANNEL_TYPE.PERPLEXITY, key: PERPLEXITY.key, models: 'sonar' });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    upstream.reset();
    upstream.handler = providersReply;
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  async function streamed(model: string, includeUsage: boolean): Promise<{ text: string; usage?: OpenAI.CompletionUsage; chunks: OpenAI.ChatCompletionChunk[] }> {
    const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return { text: chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), usage: chunks.find((chunk) => chunk.usage)?.usage ?? undefined, chunks };
  }

  describe('Cloudflare Workers AI (type 39)', () => {
    const MODEL = '@cf/meta/llama-3.1-8b-instruct';

    it('relays chat, stream, embeddings and responses under the account in the channel’s other field, billed exactly', async () => {
      const answer = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
      expect(upstream.requests[0].path).toBe('/client/v4/accounts/0123abcd/ai/v1/chat/completions');
      expect(upstream.requests[0].headers.authorization).toBe(`Bearer ${CLOUDFLARE.key}`);
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });

      const { text, usage } = await streamed(MODEL, false);
      expect({ text, usage }).toEqual({ text: MOCK_REPLY_TEXT, usage: undefined });
      expect(upstream.requests[1].body.stream_options).toEqual({ include_usage: true });
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });

      const embedded = await openai.embeddings.create({ model: '@cf/baai/bge-large-en-v1.5', input: 'I love matcha', encoding_format: 'float' });
      expect(embedded.data[0].embedding).toEqual([0.5, 0.25]);
      expect(upstream.requests[2].path).toBe('/client/v4/accounts/0123abcd/ai/v1/embeddings');
      expect(await lastLog()).toMatchObject({ quota: 8, prompt_tokens: 8 });

      const response = await openai.responses.create({ model: '@cf/openai/gpt-oss-120b', input: 'Talk to me' });
      expect(response.output_text).toBe(MOCK_REPLY_TEXT);
      expect(upstream.requests[3].path).toBe('/client/v4/accounts/0123abcd/ai/v1/responses');
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA });
    });

    it('refuses to save a Cloudflare channel without its account id, in both languages', async () => {
      const body = { name: 'cf-no-account', type: CHANNEL_TYPE.CLOUDFLARE, key: 'cf-token', models: '@cf/meta/llama-3.1-8b-instruct' };
      const english = await root.post('/api/channel/', body).set('Accept-Language', 'en').expect(200);
      expect(english.body).toMatchObject({ success: false, message: 'This channel type needs its account_id in the “other” field' });
      const chinese = await root.post('/api/channel/', body).set('Accept-Language', 'zh').expect(200);
      expect(chinese.body).toMatchObject({ success: false, message: '此渠道类型必须在“其他”字段中填写 account_id' });
      const saved = await root.post('/api/channel/', { ...body, other: '0123abcd', base_url: upstream.url }).set('Accept-Language', 'en').expect(200);
      expect(saved.body.success).toBe(true);
      const id = saved.body.data[0].id as number;
      const cleared = await root.put('/api/channel/', { id, other: '' }).set('Accept-Language', 'en').expect(200);
      expect(cleared.body).toMatchObject({ success: false, message: 'This channel type needs its account_id in the “other” field' });
      await root.delete(`/api/channel/${id}`).expect(200);
    });

    it('answers a clear error for a channel stored without its account id (imported), and calls nothing', async () => {
      await seed.createChannel({ name: 'cf-imported', type: CHANNEL_TYPE.CLOUDFLARE, base_url: upstream.url, key: CLOUDFLARE.key, models: 'cf-no-account' });
      const failed = await openai.chat.completions.create({ model: 'cf-no-account', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(failed).toMatchObject({ status: 502 });
      expect(String((failed as Error).message)).toContain('account_id is empty');
      expect(upstream.requests).toHaveLength(0);
    });

    it("disables a channel whose token Cloudflare refuses (403, code 10000), and shows the client no token", async () => {
      await seed.setOption('AutomaticDisableChannelEnabled', true);
      const id = await seed.createChannel({ name: 'cf-bad-token', type: CHANNEL_TYPE.CLOUDFLARE, base_url: upstream.url, other: '0123abcd', key: 'cf-revoked-token-0001', models: 'cf-bad-model' });
      await seed.setOption('ModelRatio', JSON.stringify({ ...PRICES.ModelRatio, 'cf-bad-model': 1 }));
      const refused = await openai.chat.completions.create({ model: 'cf-bad-model', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      expect(JSON.stringify(refused)).not.toContain('cf-revoked-token');
      expect(await seed.channelStatusEventually(id, 3)).toBe(3);
      await seed.setOption('AutomaticDisableChannelEnabled', false);
    });
  });

  describe('Volcengine Ark (type 45)', () => {
    it('sends the mapped endpoint id upstream while the client and the log keep the model asked for', async () => {
      const answer = await openai.chat.completions.create({ model: 'doubao-pro', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
      expect(upstream.requests[0]).toMatchObject({ path: '/api/v3/chat/completions', body: { model: EP_ID } });
      expect(upstream.requests[0].headers.authorization).toBe(`Bearer ${VOLCENGINE.key}`);
      expect(JSON.stringify(answer)).not.toContain(EP_ID);
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: 'doubao-pro', quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
      expect(log.other).toMatchObject({ is_model_mapped: true, upstream_model_name: EP_ID });

      const { text, usage } = await streamed('doubao-pro', true);
      expect(text).toBe(MOCK_REPLY_TEXT);
      expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
      expect(upstream.requests[1].body).toMatchObject({ model: EP_ID, stream: true, stream_options: { include_usage: true } });
      expect(await lastLog()).toMatchObject({ model_name: 'doubao-pro', quota: CHAT_QUOTA });
    });

    it('embeds through /api/v3/embeddings', async () => {
      await openai.embeddings.create({ model: 'doubao-embedding', input: ['one'], encoding_format: 'float' });
      expect(upstream.requests[0].path).toBe('/api/v3/embeddings');
      expect(await lastLog()).toMatchObject({ quota: 8 });
    });
  });

  describe('xAI (type 48)', () => {
    it('relays chat, stream, images (per request) and responses under /v1; offers no embeddings', async () => {
      await openai.chat.completions.create({ model: 'grok-3', messages: [{ role: 'user', content: 'hi' }] });
      expect(upstream.requests[0]).toMatchObject({ path: '/v1/chat/completions' });
      expect(upstream.requests[0].headers.authorization).toBe(`Bearer ${XAI.key}`);
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA });

      const { usage } = await streamed('grok-3', true);
      expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA });

      const image = await openai.images.generate({ model: 'grok-2-image', prompt: 'A cat' });
      expect(image.data?.[0].url).toBe('https://imgen.x.ai/xai-imgen/one.jpg');
      expect(upstream.requests[2].path).toBe('/v1/images/generations');
      expect(await lastLog()).toMatchObject({ model_name: 'grok-2-image', quota: 1000 });

      const response = await openai.responses.create({ model: 'grok-3', input: 'hi' });
      expect(response.output_text).toBe(MOCK_REPLY_TEXT);
      expect(upstream.requests[3].path).toBe('/v1/responses');
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });

      const embedded = await openai.embeddings.create({ model: 'grok-3', input: 'hi' }).catch((error: unknown) => error);
      expect(embedded).toMatchObject({ status: 400 });
      expect(upstream.requests).toHaveLength(4);
    });
  });

  it("disables Ark's, xAI's and Perplexity's channels on their own bad-key answers (401, xAI's 400 'Incorrect API key provided')", async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const types = { 'ark-bad-model': CHANNEL_TYPE.VOLCENGINE, 'xai-bad-model': CHANNEL_TYPE.XAI, 'pplx-bad-model': CHANNEL_TYPE.PERPLEXITY };
    await seed.setOption('ModelRatio', JSON.stringify({ ...PRICES.ModelRatio, ...Object.fromEntries(Object.keys(types).map((model) => [model, 1])) }));
    for (const [model, type] of Object.entries(types)) {
      const id = await seed.createChannel({ name: model, type, base_url: upstream.url, key: 'revoked-key-0001', models: model });
      const refused = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      expect(JSON.stringify(refused)).not.toContain('revoked-key');
      expect({ model, status: await seed.channelStatusEventually(id, 3) }).toEqual({ model, status: 3 });
    }
    await seed.setOption('AutomaticDisableChannelEnabled', false);
  });

  describe('Perplexity (type 27)', () => {
    it('calls /chat/completions without /v1, and passes citations and search results through untouched', async () => {
      const answer = (await openai.chat.completions.create({ model: 'sonar', messages: [{ role: 'user', content: 'news?' }] })) as OpenAI.ChatCompletion & { citations?: unknown; search_results?: unknown };
      expect(upstream.requests[0].path).toBe('/chat/completions');
      expect(upstream.requests[0].headers.authorization).toBe(`Bearer ${PERPLEXITY.key}`);
      expect({ citations: answer.citations, search_results: answer.search_results }).toEqual({ citations: CITATIONS, search_results: SEARCH_RESULTS });
      expect(answer.usage).toMatchObject(PERPLEXITY_USAGE);
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
    });

    it('streams without asking for stream_options, billed from the usage its last chunk carries', async () => {
      const { text, chunks } = await streamed('sonar', false);
      expect(text).toBe(MOCK_REPLY_TEXT);
      expect(upstream.requests[0].body).not.toHaveProperty('stream_options');
      expect((chunks[chunks.length - 1] as unknown as { citations: unknown }).citations).toEqual(CITATIONS);
      expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
    });
  });
});
