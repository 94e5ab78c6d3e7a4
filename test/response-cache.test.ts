import { randomBytes } from 'node:crypto';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { RoutingClock } from '../src/modules/channel-health/routing-clock';
import { OptionsService } from '../src/modules/options/options.service';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { chatCompletion, chatStreamEvents, MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { JINA_KEY, JINA_RERANK_TOKENS, jinaReply } from './support/mock-rerank-embedding';
import { sameDatabaseEnv, startTestApp, type TestApp } from './support/test-app';
import { eventually } from './support/until';

const MODEL = 'cache-chat';
const EMBEDDING_MODEL = 'cache-embedding';
const RERANK_MODEL = 'cache-rerank';
/** What every chat of the mock costs at ModelRatio 1 and CompletionRatio 2 (1 quota per token at QuotaPerUnit 500000): 1000 + 2 × 500. */
const USAGE = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
const FULL_PRICE = 2000;
const PRICES = { ModelRatio: { [MODEL]: 1, [EMBEDDING_MODEL]: 1, [RERANK_MODEL]: 1 }, CompletionRatio: { [MODEL]: 2 } };
/** Each run's prompts are its own: a Redis database may hold another run's answers. */
const RUN = randomBytes(4).toString('hex');

/** The mock answers each chat with the prompt's text in it, so two prompts get two answers. */
function chatReply(request: ReceivedRequest) {
  if (!request.path.endsWith('/chat/completions')) return undefined;
  const messages = request.body.messages as Array<{ content: string }>;
  const text = `answer to ${messages.at(-1)?.content}`;
  if (request.body.stream === true) return { sse: chatStreamEvents(String(request.body.model), text, USAGE) };
  return { status: 200, json: chatCompletion(String(request.body.model), text, USAGE) };
}

interface Answer {
  status: number;
  cache: string | null;
  contentType: string | null;
  text: string;
}

async function post(app: TestApp, path: string, apiKey: string, body: object, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, ...headers }, body: JSON.stringify(body) });
  return { status: response.status, cache: response.headers.get('x-gateway-cache'), contentType: response.headers.get('content-type'), text: await response.text() };
}

function chatBody(prompt: string, extra: object = {}): object {
  return { model: MODEL, temperature: 0, messages: [{ role: 'user', content: `${RUN} ${prompt}` }], ...extra };
}

/** The data of each SSE event of a stream. */
function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .map((event) => event.split('\n').find((line) => line.startsWith('data: '))?.slice('data: '.length))
    .filter((data): data is string => data !== undefined);
}

/** Root with quota, the prices, and an OpenAI channel at the mock for `models`. */
async function seedGateway(app: TestApp, upstream: MockUpstream, models: string): Promise<{ seed: RelaySeed; root: Session }> {
  const seed = new RelaySeed(app);
  const root = await setupRoot(app);
  await seed.setUserQuota(root.id, 100_000_000);
  for (const [key, value] of Object.entries(PRICES)) await seed.setOption(key, JSON.stringify(value));
  await seed.createChannel({ name: 'openai', base_url: upstream.url, models });
  return { seed, root };
}

describe('response cache in process', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let jina: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let rootId = 0;
  let nowMs = Date.now();

  const chat = (apiKey: string, prompt: string, extra: object = {}) => post(app, '/v1/chat/completions', apiKey, chatBody(prompt, extra));
  const cachingToken = async (userId = rootId, fields: Record<string, unknown> = {}) => seed.createToken(userId, { response_cache: true, ...fields });

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    jina = await new MockUpstream().start();
    app = await startTestApp();
    ({ seed, root } = await seedGateway(app, upstream, `${MODEL},${EMBEDDING_MODEL}`));
    rootId = root.id;
    await seed.createChannel({ name: 'jina', type: CHANNEL_TYPE.JINA, base_url: jina.url, key: JINA_KEY, models: RERANK_MODEL });
    jest.spyOn(app.app.get(RoutingClock), 'nowMs').mockImplementation(() => nowMs);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
    await jina.stop();
  });
  beforeEach(() => {
    upstream.reset();
    upstream.handler = chatReply;
    jina.reset();
    jina.handler = jinaReply;
  });

  it('answers a repeated call from the cache without calling the upstream, and tells hits from misses', async () => {
    const { apiKey } = await cachingToken();
    const first = await chat(apiKey, 'hits and misses');
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    expect(JSON.parse(first.text).choices[0].message.content).toBe(`answer to ${RUN} hits and misses`);

    // The same call, its members in another order: the same answer, byte for byte, from the cache.
    const again = await post(app, '/v1/chat/completions', apiKey, { messages: [{ content: `${RUN} hits and misses`, role: 'user' }], temperature: 0, model: MODEL });
    expect(again).toMatchObject({ status: 200, cache: 'hit', text: first.text });
    expect(again.contentType).toContain('application/json');
    expect(upstream.requests).toHaveLength(1);

    // Another prompt, or another parameter, is another call.
    expect((await chat(apiKey, 'something else')).cache).toBe('miss');
    expect((await chat(apiKey, 'hits and misses', { max_tokens: 50 })).cache).toBe('miss');
    expect(upstream.requests).toHaveLength(3);
  });

  it('bills a hit at ResponseCacheHitRatio of the full price through the ledger, logged with cache_hit', async () => {
    const token = await cachingToken();
    await seed.flush();
    const tokenBefore = await seed.tokenQuota(token.id);
    const userBefore = await seed.userQuota(rootId);

    await chat(token.apiKey, 'billing');
    expect((await chat(token.apiKey, 'billing')).cache).toBe('hit');
    await seed.setOption('ResponseCacheHitRatio', 0.25);
    try {
      expect((await chat(token.apiKey, 'billing')).cache).toBe('hit');
    } finally {
      await seed.setOption('ResponseCacheHitRatio', 0.1);
    }

    await seed.flush();
    const logs = await seed.consumeLogs({ tokenId: token.id });
    expect(logs.map((log) => log.quota)).toEqual([FULL_PRICE, FULL_PRICE / 10, FULL_PRICE / 4]);
    expect(logs[0].other.cache_hit).toBeUndefined();
    expect(logs[1]).toMatchObject({ channel_id: 0, prompt_tokens: 1000, completion_tokens: 500, model_name: MODEL });
    expect(logs[1].other).toMatchObject({ cache_hit: true, cache_hit_ratio: 0.1, cache_full_quota: FULL_PRICE });
    expect(logs[2].other).toMatchObject({ cache_hit: true, cache_hit_ratio: 0.25 });

    const spent = FULL_PRICE + FULL_PRICE / 10 + FULL_PRICE / 4;
    expect((await seed.tokenQuota(token.id)).remain_quota).toBe(tokenBefore.remain_quota - spent);
    const userAfter = await seed.userQuota(rootId);
    expect(userAfter.quota).toBe(userBefore.quota - spent);
    expect(userAfter.request_count).toBe(userBefore.request_count + 3);
  });

  it('caches a chat above temperature 0, or without one, only for a token that allows it', async () => {
    const { apiKey } = await cachingToken();
    for (const extra of [{ temperature: 0.7 }, { temperature: undefined }]) {
      const first = await chat(apiKey, 'sampled', extra);
      // Not looked up at all: no header.
      expect(first).toMatchObject({ status: 200, cache: null });
      expect((await chat(apiKey, 'sampled', extra)).cache).toBeNull();
    }
    expect(upstream.requests).toHaveLength(4);

    const nondeterministic = await cachingToken(rootId, { response_cache_nondeterministic: true });
    expect((await chat(nondeterministic.apiKey, 'sampled', { temperature: 0.7 })).cache).toBe('miss');
    expect((await chat(nondeterministic.apiKey, 'sampled', { temperature: 0.7 })).cache).toBe('hit');
  });

  it('lets an answer expire after ResponseCacheTTLSeconds', async () => {
    await seed.setOption('ResponseCacheTTLSeconds', 60);
    try {
      const { apiKey } = await cachingToken();
      await chat(apiKey, 'expiring');
      nowMs += 59_000;
      expect((await chat(apiKey, 'expiring')).cache).toBe('hit');
      nowMs += 2_000;
      expect((await chat(apiKey, 'expiring')).cache).toBe('miss');
      expect((await chat(apiKey, 'expiring')).cache).toBe('hit');
      expect(upstream.requests).toHaveLength(2);
    } finally {
      await seed.setOption('ResponseCacheTTLSeconds', 3600);
    }
  });

  it("shares answers among a user's tokens but never with another user's, unless ResponseCacheSharedAcrossUsers", async () => {
    const other = await registerUser(app, `cu${RUN}`);
    await seed.setUserQuota(other.id, 100_000_000);
    const mine = await cachingToken();
    const alsoMine = await cachingToken();
    const theirs = await cachingToken(other.id);

    await chat(mine.apiKey, 'isolation');
    expect((await chat(alsoMine.apiKey, 'isolation')).cache).toBe('hit');
    expect((await chat(theirs.apiKey, 'isolation')).cache).toBe('miss');
    expect(upstream.requests).toHaveLength(2);

    await seed.setOption('ResponseCacheSharedAcrossUsers', true);
    try {
      expect((await chat(mine.apiKey, 'shared')).cache).toBe('miss');
      expect((await chat(theirs.apiKey, 'shared')).cache).toBe('hit');
    } finally {
      await seed.setOption('ResponseCacheSharedAcrossUsers', false);
    }
  });

  it('caches the calls of the groups in ResponseCacheGroups, and no others', async () => {
    const { apiKey } = await seed.createToken(rootId);
    expect((await chat(apiKey, 'by group')).cache).toBeNull();
    await seed.setOption('ResponseCacheGroups', 'vip, default');
    try {
      expect((await chat(apiKey, 'by group')).cache).toBe('miss');
      expect((await chat(apiKey, 'by group')).cache).toBe('hit');
    } finally {
      await seed.setOption('ResponseCacheGroups', '');
    }
    expect((await chat(apiKey, 'by group')).cache).toBeNull();
  });

  it('caches embeddings and rerank', async () => {
    const token = await cachingToken();
    const embedding = { model: EMBEDDING_MODEL, input: `${RUN} embed me` };
    const firstEmbedding = await post(app, '/v1/embeddings', token.apiKey, embedding);
    expect(firstEmbedding.cache).toBe('miss');
    expect(await post(app, '/v1/embeddings', token.apiKey, embedding)).toMatchObject({ status: 200, cache: 'hit', text: firstEmbedding.text });
    expect(upstream.requests).toHaveLength(1);

    const rerank = { model: RERANK_MODEL, query: `capital of France ${RUN}`, documents: ['Berlin is in Germany', 'Paris is the capital of France'] };
    const firstRerank = await post(app, '/v1/rerank', token.apiKey, rerank);
    expect(firstRerank).toMatchObject({ status: 200, cache: 'miss' });
    expect(await post(app, '/v1/rerank', token.apiKey, rerank)).toMatchObject({ status: 200, cache: 'hit', text: firstRerank.text });
    expect(jina.requests).toHaveLength(1);

    await seed.flush();
    const logs = await seed.consumeLogs({ tokenId: token.id });
    expect(logs.map((log) => [log.quota, log.other.cache_hit ?? false])).toEqual([
      [8, false],
      [1, true],
      [JINA_RERANK_TOKENS, false],
      [Math.round(JINA_RERANK_TOKENS / 10), true],
    ]);
  });

  it('serves a streamed call from the cache as a stream, in OpenAI and Claude formats', async () => {
    const token = await cachingToken();
    await chat(token.apiKey, 'stream me');
    const streamed = await chat(token.apiKey, 'stream me', { stream: true, stream_options: { include_usage: true } });
    expect(streamed).toMatchObject({ status: 200, cache: 'hit' });
    expect(streamed.contentType).toContain('text/event-stream');
    const events = sseData(streamed.text);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe(`answer to ${RUN} stream me`);
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    expect(upstream.requests).toHaveLength(1);

    // A Claude client, through the same OpenAI channel (converted): its own message, then its own event stream.
    const claude = { model: MODEL, max_tokens: 100, temperature: 0, messages: [{ role: 'user', content: `${RUN} claude stream` }] };
    const claudeHeaders = { 'x-api-key': token.apiKey, 'anthropic-version': '2023-06-01' };
    const message = await post(app, '/v1/messages', token.apiKey, claude, claudeHeaders);
    expect(message.cache).toBe('miss');
    expect(JSON.parse(message.text).content).toEqual([{ type: 'text', text: `answer to ${RUN} claude stream` }]);
    const claudeStream = await post(app, '/v1/messages', token.apiKey, { ...claude, stream: true }, claudeHeaders);
    expect(claudeStream).toMatchObject({ status: 200, cache: 'hit' });
    const claudeEvents = sseData(claudeStream.text).map((data) => JSON.parse(data));
    expect(claudeEvents.map((event) => event.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(claudeEvents[2].delta).toEqual({ type: 'text_delta', text: `answer to ${RUN} claude stream` });
    expect(claudeEvents[4]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 1000, output_tokens: 500 } });
    expect(upstream.requests).toHaveLength(2);

    await seed.flush();
    const logs = await seed.consumeLogs({ tokenId: token.id });
    expect(logs.map((log) => [log.is_stream ? 'stream' : 'whole', log.other.cache_hit ?? false])).toEqual([
      ['whole', false],
      ['stream', true],
      ['whole', false],
      ['stream', true],
    ]);
  });

  it('stores no streamed answer, and answers a Gemini stream from a stored whole answer', async () => {
    const { apiKey } = await cachingToken();
    // A stream that missed is relayed as ever, and not stored.
    expect((await chat(apiKey, 'streamed first', { stream: true })).cache).toBe('miss');
    expect((await chat(apiKey, 'streamed first')).cache).toBe('miss');
    expect(upstream.requests).toHaveLength(2);

    const gemini = { contents: [{ role: 'user', parts: [{ text: `${RUN} gemini` }] }], generationConfig: { temperature: 0 } };
    const headers = { 'x-goog-api-key': apiKey };
    expect((await post(app, `/v1beta/models/${MODEL}:generateContent`, apiKey, gemini, headers)).cache).toBe('miss');
    const stream = await post(app, `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, apiKey, gemini, headers);
    expect(stream).toMatchObject({ status: 200, cache: 'hit' });
    const events = sseData(stream.text).map((data) => JSON.parse(data));
    expect(events.map((event) => event.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join('')).toBe(`answer to ${RUN} gemini`);
    expect(events.at(-1).usageMetadata).toMatchObject({ promptTokenCount: 1000, candidatesTokenCount: 500 });
    // Without alt=sse: one JSON array.
    const array = await post(app, `/v1beta/models/${MODEL}:streamGenerateContent`, apiKey, gemini, headers);
    expect(array.cache).toBe('hit');
    expect((JSON.parse(array.text) as unknown[]).length).toBeGreaterThan(0);
    expect(upstream.requests).toHaveLength(3);
  });

  it("is turned on and off in the token's own settings", async () => {
    const created = await root.post('/api/token/', { name: 'cached', remain_quota: 1_000_000, expired_time: -1, response_cache: true }).expect(200);
    const token = created.body.data[0];
    expect(token).toMatchObject({ response_cache: true, response_cache_nondeterministic: false });
    expect((await chat(token.key, 'token settings')).cache).toBe('miss');
    expect((await chat(token.key, 'token settings')).cache).toBe('hit');

    const edited = await root.put('/api/token/', { id: token.id, response_cache: false }).expect(200);
    expect(edited.body.data).toMatchObject({ response_cache: false });
    await eventually(async () => (await chat(token.key, 'token settings')).cache === null);
    await root.put('/api/token/', { id: token.id, response_cache: 'yes' }).expect((response) => expect(response.body.success).toBe(false));
  });

  it('leaves calls of tokens that did not opt in alone', async () => {
    const { apiKey } = await seed.createToken(rootId);
    const first = await chat(apiKey, 'not opted in');
    const second = await chat(apiKey, 'not opted in');
    expect([first.cache, second.cache]).toEqual([null, null]);
    expect(upstream.requests).toHaveLength(2);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('response cache in Redis, shared by two instances', () => {
  let first: TestApp;
  let second: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let apiKey = '';
  let tokenId = 0;
  let nowMs = Date.now();

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    upstream.handler = chatReply;
    // A database of the Redis server picked at random and not flushed: other runs may use it, and this run's prompts are its own.
    const redis = `${redisUrl!.replace(/\/\d*$/, '')}/${1 + Math.floor(Math.random() * 14)}`;
    first = await startTestApp({ REDIS_CONN_STRING: redis });
    second = await startTestApp({ ...sameDatabaseEnv(first.config), REDIS_CONN_STRING: redis });
    let root: Session;
    ({ seed, root } = await seedGateway(first, upstream, MODEL));
    ({ apiKey, id: tokenId } = await seed.createToken(root.id, { response_cache: true }));
    for (const app of [first, second]) jest.spyOn(app.app.get(RoutingClock), 'nowMs').mockImplementation(() => nowMs);
    // The second instance learns of the channel through Redis a moment later.
    await eventually(async () => (await post(second, '/v1/chat/completions', apiKey, chatBody('warm-up'))).status === 200);
  });
  afterAll(async () => {
    // The second shares the first's database: only the first drops it.
    await second.close();
    await first.stop();
    await upstream.stop();
  });
  beforeEach(() => {
    upstream.reset();
    upstream.handler = chatReply;
  });

  it('answers on one instance what the other stored, billed at the hit ratio', async () => {
    expect((await post(first, '/v1/chat/completions', apiKey, chatBody('across instances'))).cache).toBe('miss');
    // The store is not awaited by the call: the second instance may ask a moment before it lands.
    await eventually(async () => (await post(second, '/v1/chat/completions', apiKey, chatBody('across instances'))).cache === 'hit');
    const streamed = await post(second, '/v1/chat/completions', apiKey, chatBody('across instances', { stream: true }));
    expect(streamed).toMatchObject({ status: 200, cache: 'hit' });
    expect(sseData(streamed.text).at(-1)).toBe('[DONE]');
    expect(upstream.requests).toHaveLength(1);

    await new RelaySeed(second).flush();
    await seed.flush();
    const logs = (await seed.consumeLogs({ tokenId })).slice(-3);
    // Each instance writes its rows in its own batches, so their ids need not follow the calls' order.
    const charges = logs.map((log) => [log.quota, log.other.cache_hit ?? false] as const).sort(([a], [b]) => b - a);
    expect(charges).toEqual([
      [FULL_PRICE, false],
      [FULL_PRICE / 10, true],
      [FULL_PRICE / 10, true],
    ]);
  });

  it('keeps only hashed keys in Redis, and lets answers expire after the TTL', async () => {
    await seed.setOption('ResponseCacheTTLSeconds', 60);
    await eventually(async () => second.app.get(OptionsService).get('ResponseCacheTTLSeconds') === 60);
    try {
      await post(first, '/v1/chat/completions', apiKey, chatBody('expiring in redis'));
      await eventually(async () => (await post(second, '/v1/chat/completions', apiKey, chatBody('expiring in redis'))).cache === 'hit');
      nowMs += 61_000;
      expect((await post(second, '/v1/chat/completions', apiKey, chatBody('expiring in redis'))).cache).toBe('miss');
    } finally {
      await seed.setOption('ResponseCacheTTLSeconds', 3600);
    }

    const { default: Redis } = await import('ioredis');
    const client = new Redis(first.config.redisUrl!);
    try {
      const keys = await client.keys('gw:response-cache:*');
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).toMatch(/^gw:response-cache:[A-Za-z0-9_-]{43}$/);
    } finally {
      await client.quit();
    }
  });
});
