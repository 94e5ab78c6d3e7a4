import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { COHERE_KEY, cohereReply } from './support/mock-cohere';
import { EMBEDDING, JINA_KEY, JINA_RERANK_TOKENS, JINA_TOKENS_PER_INPUT, M3E_KEY, XINFERENCE_RERANK_TOKENS, jinaReply, m3eReply, xinferenceReply } from './support/mock-rerank-embedding';
import { MockUpstream } from './support/mock-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countTokens } = require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: (text: string, options: object) => number };

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token, and a ModelPrice p costs
 * p × 500000 per request (0.002: 1000 quota).
 */
const PRICES = {
  ModelRatio: { 'jina-reranker': 1, 'xinference-reranker': 1, 'rerank-cohere-tokens': 1, 'rerank-failover': 1, 'rerank-skip': 1, 'rerank-none': 1, 'jina-embeddings': 1, 'm3e-base': 1, 'gpt-test': 1 },
  ModelPrice: { 'rerank-fixed': 0.002 },
};
const QUERY = 'capital of France';
const DOCUMENTS = ['Berlin is the capital of Germany', { text: 'Paris is the capital of France' }, 'Madrid is in Spain'];

describe('relay: POST /v1/rerank through Jina, Cohere and Xinference channels', () => {
  let bed: NativeRelayTestbed;
  let cohere: MockUpstream;
  let chatOnly: MockUpstream;
  const jina = new MockUpstream();
  const m3e = new MockUpstream();
  const xinference = new MockUpstream();
  const broken = new MockUpstream();
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    ({ native: cohere, openaiUpstream: chatOnly } = bed);
    await Promise.all([jina.start(), m3e.start(), xinference.start(), broken.start()]);
    ids.jina = await bed.seed.createChannel({ name: 'jina', type: CHANNEL_TYPE.JINA, base_url: jina.url, key: JINA_KEY, models: 'jina-reranker,rerank-fixed,rerank-skip,jina-embeddings' });
    ids.xinference = await bed.seed.createChannel({ name: 'xinference', type: CHANNEL_TYPE.XINFERENCE, base_url: xinference.url, key: 'any', models: 'xinference-reranker,rerank-failover' });
    ids.cohere = await bed.seed.createChannel({ name: 'cohere', type: CHANNEL_TYPE.COHERE, base_url: cohere.url, key: COHERE_KEY, models: 'rerank-cohere-tokens' });
    ids.broken = await bed.seed.createChannel({ name: 'jina-broken', type: CHANNEL_TYPE.JINA, base_url: broken.url, key: JINA_KEY, models: 'rerank-failover', priority: 10 });
    // A chat-only type listing rerank models (a misconfiguration): passed over, never called.
    ids.chatOnly = await bed.seed.createChannel({ name: 'deepseek', type: CHANNEL_TYPE.DEEPSEEK, base_url: chatOnly.url, models: 'rerank-skip,rerank-none', priority: 10 });
    // Pasted as new-api and One API take it, with the /v1.
    ids.m3e = await bed.seed.createChannel({ name: 'm3e', type: CHANNEL_TYPE.MOKAAI, base_url: `${m3e.url}/v1`, key: M3E_KEY, models: 'm3e-base' });
  });
  afterAll(async () => {
    await bed.stop();
    await Promise.all([jina.stop(), m3e.stop(), xinference.stop(), broken.stop()]);
  });
  beforeEach(async () => {
    for (const mock of [cohere, chatOnly, jina, m3e, xinference, broken]) mock.reset();
    cohere.handler = cohereReply;
    jina.handler = jinaReply;
    m3e.handler = m3eReply;
    xinference.handler = xinferenceReply;
    broken.handler = () => ({ status: 500, json: { detail: 'Internal Server Error' } });
    await bed.seed.flush();
  });

  async function lastLog() {
    await bed.seed.flush();
    return (await bed.seed.consumeLogs({ tokenId: bed.token.id })).slice(-1)[0];
  }

  /** A rerank call in Cohere's and Jina's shape, as their clients make it: plain fetch. */
  async function rerank(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
    const response = await fetch(`${bed.app.baseUrl}/v1/rerank`, { method: 'POST', headers: { authorization: `Bearer ${bed.token.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
  }

  it('passes a Jina rerank through, billed per token from usage.total_tokens', async () => {
    const answer = await rerank({ model: 'jina-reranker', query: QUERY, documents: DOCUMENTS, top_n: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ results: [{ index: 1, document: { text: 'Paris is the capital of France' }, relevance_score: 1 }, { index: 0 }], usage: { total_tokens: JINA_RERANK_TOKENS } });
    expect(jina.requests[0]).toMatchObject({ path: '/v1/rerank', body: { model: 'jina-reranker', query: QUERY, documents: DOCUMENTS, top_n: 2 } });
    expect(jina.requests[0].headers.authorization).toBe(`Bearer ${JINA_KEY}`);
    expect(await lastLog()).toMatchObject({ quota: JINA_RERANK_TOKENS, prompt_tokens: JINA_RERANK_TOKENS, completion_tokens: 0, channel_id: ids.jina });
    expect(answer.text).not.toContain(JINA_KEY);
  });

  it('tests an embeddings-only channel (Jina, M3E) with an embeddings request, since it has no chat', async () => {
    for (const [name, mock, model] of [['jina', jina, 'jina-embeddings'], ['m3e', m3e, 'm3e-base']] as const) {
      const tested = await bed.root.get(`/api/channel/test/${ids[name]}?model=${model}`);
      expect({ name, success: tested.body.success, message: tested.body.message }).toEqual({ name, success: true, message: expect.any(String) });
      expect(mock.requests.at(-1)?.path).toMatch(/\/v1\/embeddings$/);
    }
  });

  it('bills a model priced per request at its ModelPrice, whatever the tokens', async () => {
    expect((await rerank({ model: 'rerank-fixed', query: QUERY, documents: DOCUMENTS })).status).toBe(200);
    expect((await lastLog()).quota).toBe(1000);
  });

  it("reads Xinference's input tokens from meta.tokens, not its repeated output count", async () => {
    const answer = await rerank({ model: 'xinference-reranker', query: QUERY, documents: DOCUMENTS, return_documents: true });
    expect(answer.body).toMatchObject({ results: [{ index: 1, document: { text: 'Paris is the capital of France' } }, {}, {}] });
    expect(await lastLog()).toMatchObject({ quota: XINFERENCE_RERANK_TOKENS, prompt_tokens: XINFERENCE_RERANK_TOKENS, completion_tokens: 0 });
  });

  it('counts the query and documents itself when Cohere bills search units only', async () => {
    const answer = await rerank({ model: 'rerank-cohere-tokens', query: QUERY, documents: DOCUMENTS, top_n: 1, return_documents: false });
    expect(answer.body).toMatchObject({ results: [{ index: 1, relevance_score: 1 }], meta: { billed_units: { search_units: 1 } } });
    expect((answer.body.results as Array<Record<string, unknown>>)[0].document).toBeUndefined();
    const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
    const tokens = count(QUERY) + count('Berlin is the capital of Germany\nParis is the capital of France\nMadrid is in Spain');
    expect(await lastLog()).toMatchObject({ quota: tokens, prompt_tokens: tokens, completion_tokens: 0, channel_id: ids.cohere });
  });

  it('fails over from a failing channel to the next, as chat does', async () => {
    await bed.seed.setOption('RetryTimes', 1);
    try {
      const answer = await rerank({ model: 'rerank-failover', query: QUERY, documents: DOCUMENTS });
      expect(answer.status).toBe(200);
      expect(broken.requests).toHaveLength(1);
      expect(xinference.requests).toHaveLength(1);
      expect((await lastLog()).other).toMatchObject({ admin_info: { use_channel: [ids.broken, ids.xinference] } });
    } finally {
      await bed.seed.setOption('RetryTimes', 0);
    }
  });

  it('passes over a channel whose type offers no rerank without spending an attempt, and says so when none offers it', async () => {
    const answer = await rerank({ model: 'rerank-skip', query: QUERY, documents: DOCUMENTS });
    expect(answer.status).toBe(200);
    expect(chatOnly.requests).toHaveLength(0);
    expect((await lastLog()).other).toMatchObject({ admin_info: { use_channel: [ids.jina] } });

    const before = await bed.seed.userQuota(bed.alice.id);
    const refused = await rerank({ model: 'rerank-none', query: QUERY, documents: DOCUMENTS });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_request' } });
    expect(String((refused.body.error as Record<string, unknown>).message)).toContain('offers /rerank');
    expect(chatOnly.requests).toHaveLength(0);
    // The hold was given back.
    await bed.seed.flush();
    expect((await bed.seed.userQuota(bed.alice.id)).quota).toBe(before.quota);
  });

  it("answers an upstream's refusal in OpenAI's error shape, without its key", async () => {
    const refused = await rerank({ model: 'jina-reranker', documents: DOCUMENTS });
    expect(refused.status).toBe(422);
    expect(String((refused.body.error as Record<string, unknown>).message)).toContain('query and documents are required');
    expect(refused.text).not.toContain(JINA_KEY);
  });

  describe('Jina and M3E embeddings for the openai SDK', () => {
    it("asks Jina for base64 in its own parameter, as the SDK's default asks, and floats when asked", async () => {
      const result = await bed.openai.embeddings.create({ model: 'jina-embeddings', input: ['one', 'two'] });
      expect(result.data.map((entry) => entry.embedding)).toEqual([EMBEDDING, EMBEDDING]);
      expect(jina.requests[0].body).toEqual({ model: 'jina-embeddings', input: ['one', 'two'], embedding_type: 'base64' });
      expect(await lastLog()).toMatchObject({ quota: 2 * JINA_TOKENS_PER_INPUT, prompt_tokens: 2 * JINA_TOKENS_PER_INPUT });

      const floats = await bed.openai.embeddings.create({ model: 'jina-embeddings', input: 'one', encoding_format: 'float' });
      expect(floats.data[0].embedding).toEqual(EMBEDDING);
      expect(jina.requests[1].body).toEqual({ model: 'jina-embeddings', input: 'one', embedding_type: 'float' });
    });

    it('sends an M3E server a list of texts at /v1/embeddings, encodes its floats for base64 clients, and bills its total_tokens', async () => {
      const result = await bed.openai.embeddings.create({ model: 'm3e-base', input: 'hello m3e world' });
      expect(result.data[0].embedding).toEqual(EMBEDDING);
      expect(m3e.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'm3e-base', input: ['hello m3e world'] } });
      expect(m3e.requests[0].headers.authorization).toBe(`Bearer ${M3E_KEY}`);
      // The server counts 3 words as prompt_tokens and ceil(15 / 2) = 8 tokens as total_tokens.
      expect(result.usage).toMatchObject({ prompt_tokens: 8, total_tokens: 8 });
      expect(await lastLog()).toMatchObject({ quota: 8, prompt_tokens: 8, completion_tokens: 0, channel_id: ids.m3e });

      const floats = await bed.openai.embeddings.create({ model: 'm3e-base', input: ['a', 'b'], encoding_format: 'float' });
      expect(floats.data.map((entry) => entry.embedding)).toEqual([EMBEDDING, EMBEDDING]);
      expect((await bed.root.get(`/api/channel/fetch_models/${ids.m3e}`).expect(200)).body.data).toEqual(['m3e-small', 'm3e-base', 'm3e-large']);
    });
  });
});
