import type OpenAI from 'openai';
import { OutboundGuardService } from '../src/modules/outbound/outbound-guard.service';
import type { Resolver } from '../src/modules/outbound/address-policy';
import type { Session } from './support/accounts';
import { MockXunfei, SPARK_API_SECRET, SPARK_APP_ID, SPARK_KEY, SPARK_REPLY_TEXT } from './support/mock-xunfei';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed, unitPrices } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. Spark's last frame reports 14
 * prompt tokens (history and question) and 9 completion tokens: 14 + 9 × 2 = 32 quota.
 */
const SPARK_QUOTA = 32;
const MODELS = ['SparkDesk-v3.5', 'SparkDesk', 'spark-broken', 'spark-quota', 'spark-busy', 'spark-probe', 'spark-metadata', 'spark-named'];
const PRICES = unitPrices(MODELS, 2);

describe('relay: iFlytek Spark channels (type 18, WebSocket)', () => {
  let app: TestApp;
  let spark: MockXunfei;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    spark = await new MockXunfei().start();
    ({ app, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'spark-max', type: 18, base_url: spark.url, models: 'SparkDesk-v3.5', key: SPARK_KEY, other: 'v2.1' });
    await seed.createChannel({ name: 'spark-lite', type: 18, base_url: spark.url, models: 'SparkDesk', key: SPARK_KEY, other: 'v1.1' });
  });
  afterAll(async () => {
    await stop();
    await spark.stop();
  });
  beforeEach(async () => {
    spark.reset();
    await seed.flush();
  });

  it('answers a chat from the version the model names, signs the URL, keeps the system message where Spark takes it, and bills the last frame’s usage', async () => {
    const answer = await openai.chat.completions.create({
      model: 'SparkDesk-v3.5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.5,
      max_tokens: 100,
      user: 'alice-1',
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: SPARK_REPLY_TEXT }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 9, total_tokens: 23 });

    const [exchange] = spark.exchanges;
    // The model's version wins over the channel's `other` (v2.1).
    expect(exchange.path).toBe('/v3.5/chat');
    expect([...exchange.query.keys()].sort()).toEqual(['authorization', 'date', 'host']);
    expect(exchange.frame).toEqual({
      header: { app_id: SPARK_APP_ID, uid: 'alice-1' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      payload: { message: { text: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] } },
    });
    expect(JSON.stringify(exchange.frame)).not.toContain(SPARK_API_SECRET);
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: SPARK_QUOTA, prompt_tokens: 14, completion_tokens: 9 });
  });

  it('takes the version from the channel’s other field, folding the system text into the first turn for versions without one', async () => {
    const answer = await openai.chat.completions.create({ model: 'SparkDesk', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(SPARK_REPLY_TEXT);
    expect(spark.exchanges[0].path).toBe('/v1.1/chat');
    expect(spark.exchanges[0].frame).toMatchObject({ parameter: { chat: { domain: 'lite' } }, payload: { message: { text: [{ role: 'user', content: 'Be brief.\n\nhi' }] } } });
  });

  it('streams frames as OpenAI chunks, the usage chunk only when asked, billed exactly', async () => {
    const stream = await openai.chat.completions.create({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const finishes = [];
    const usages = [];
    for await (const chunk of stream) {
      if (chunk.usage) usages.push(chunk.usage);
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect(text).toBe(SPARK_REPLY_TEXT);
    expect(finishes).toEqual(['stop']);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 14, completion_tokens: 9 })]);
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: SPARK_QUOTA, prompt_tokens: 14, completion_tokens: 9 });

    const plain = await openai.chat.completions.create({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const chunks = [];
    for await (const chunk of plain) chunks.push(chunk);
    expect(chunks.every((chunk) => !chunk.usage)).toBe(true);
  });

  it('closes the WebSocket when the client goes away mid-stream', async () => {
    spark.script = () => ({ pieces: ['one ', 'two ', 'three'], delayMs: 30, hangAfter: true });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'hi' }], stream: true }, { signal: controller.signal });
    let text = '';
    try {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        if (text.includes('two')) controller.abort();
      }
    } catch {
      // The SDK may end the iteration quietly or throw its abort error: either way the client is gone.
    }
    for (let attempt = 0; attempt < 40 && spark.closedEarly === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spark.closedEarly).toBe(1);
  });

  it('auto-disables a channel whose signature Spark refuses at the upgrade (401), without showing a secret', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'spark-broken', type: 18, base_url: spark.url, models: 'spark-broken', key: `${SPARK_APP_ID}|wrong-api-secret-1234|spark-api-key-5be07a`, other: 'v3.5' });
    const refused = await openai.chat.completions.create({ model: 'spark-broken', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unauthorized' });
    expect(JSON.stringify(refused)).not.toMatch(/wrong-api-secret|spark-api-key|authorization=/);
    expect(spark.exchanges).toHaveLength(0);
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
  });

  it('auto-disables on Spark’s licence/quota error frame, and passes a flow-control frame on as a rate limit', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const exhausted = await seed.createChannel({ name: 'spark-quota', type: 18, base_url: spark.url, models: 'spark-quota', key: SPARK_KEY, other: 'v3.5' });
    spark.script = () => ({ errorCode: 11200, message: 'AppIdNoAuthError:(11200)auth no license' });
    const refused = await openai.chat.completions.create({ model: 'spark-quota', messages: [{ role: 'user', content: 'hi' }], stream: true }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
    expect(await seed.channelStatusEventually(exhausted, 3)).toBe(3);

    const busy = await seed.createChannel({ name: 'spark-busy', type: 18, base_url: spark.url, models: 'spark-busy', key: SPARK_KEY, other: 'v3.5' });
    spark.script = () => ({ errorCode: 11202, message: 'AppIdQpsOverFlowError:(11202)qps over flow' });
    const limited = await openai.chat.completions.create({ model: 'spark-busy', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(limited).toMatchObject({ status: 429 });
    expect(String((limited as Error).message)).toContain('11202');
    expect((await seed.channel(busy)).status).toBe(1);
  });

  it('tests a Spark channel through its WebSocket and lists the known models', async () => {
    const id = await seed.createChannel({ name: 'spark-probe', type: 18, base_url: spark.url, models: 'spark-probe', test_model: 'spark-probe', key: SPARK_KEY, other: 'v4.0' });
    expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
    expect(spark.exchanges[0]).toMatchObject({ path: '/v4.0/chat', frame: { parameter: { chat: { domain: '4.0Ultra', max_tokens: 16 } } } });
    expect((await root.get(`/api/channel/fetch_models/${id}`).expect(200)).body.data).toEqual(expect.arrayContaining(['SparkDesk-v3.5', 'Spark-4.0-Ultra']));
  });

  describe('the outbound guard', () => {
    let guard: OutboundGuardService;
    let systemResolver: Resolver;
    beforeAll(() => {
      guard = app.app.get(OutboundGuardService);
      systemResolver = guard.resolver;
    });
    afterEach(() => {
      guard.resolver = systemResolver;
    });

    it('refuses a metadata address before any connection, literal or resolved', async () => {
      await seed.createChannel({ name: 'spark-metadata', type: 18, base_url: 'http://169.254.169.254', models: 'spark-metadata', key: SPARK_KEY, other: 'v3.5' });
      const literal = await openai.chat.completions.create({ model: 'spark-metadata', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(literal).toMatchObject({ status: 502, code: 'upstream_address_refused' });

      const resolved: string[] = [];
      guard.resolver = (host) => {
        resolved.push(host);
        return Promise.resolve([{ address: '169.254.169.254', family: 4 }]);
      };
      await seed.createChannel({ name: 'spark-named', type: 18, base_url: 'http://spark.metadata-alias.test', models: 'spark-named', key: SPARK_KEY, other: 'v3.5' });
      const named = await openai.chat.completions.create({ model: 'spark-named', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(named).toMatchObject({ status: 502, code: 'upstream_address_refused' });
      // The guard judged the name (its resolution, not the system's), and refused the only address it had.
      expect(resolved).toEqual(['spark.metadata-alias.test']);
      expect(spark.exchanges).toHaveLength(0);
    });
  });
});
