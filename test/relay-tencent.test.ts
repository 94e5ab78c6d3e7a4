import type OpenAI from 'openai';
import type { Session } from './support/accounts';
import { HUNYUAN_REPLY_TEXT, hunyuanReply, TENCENT_KEY, TENCENT_SECRET_ID, TENCENT_SECRET_KEY, tencentError } from './support/mock-tencent';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed, unitPrices } from './support/native-relay';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. A Hunyuan answer reports 11 prompt
 * and 6 completion tokens: 11 + 6 × 2 = 23 quota; an embedding 6 prompt tokens: 6 quota.
 */
const HUNYUAN_QUOTA = 23;
const EMBEDDING_QUOTA = 6;
const MODELS = ['hunyuan-turbo', 'hunyuan-embedding', 'hunyuan-broken', 'hunyuan-arrears', 'hunyuan-probe', 'hunyuan-slow'];
const PRICES = unitPrices(MODELS, 2);

describe('relay: Tencent Hunyuan channels (type 23, API 3.0)', () => {
  let tencent: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: tencent, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'hunyuan', type: 23, base_url: tencent.url, models: 'hunyuan-turbo,hunyuan-embedding', key: TENCENT_KEY });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    tencent.reset();
    tencent.handler = hunyuanReply;
    await seed.flush();
  });

  it('converts a chat into a signed ChatCompletions call and bills Hunyuan’s usage exactly', async () => {
    const answer = await openai.chat.completions.create({
      model: 'hunyuan-turbo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      temperature: 0.7,
      top_p: 0.9,
      stop: 'END',
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: HUNYUAN_REPLY_TEXT }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 });

    const [sent] = tencent.requests;
    expect(sent.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01', 'content-type': 'application/json' });
    expect(sent.headers.authorization).toMatch(new RegExp(`^TC3-HMAC-SHA256 Credential=${TENCENT_SECRET_ID}/\\d{4}-\\d{2}-\\d{2}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$`));
    expect(sent.headers.authorization).not.toContain(TENCENT_SECRET_KEY);
    expect(sent.body).toEqual({
      Model: 'hunyuan-turbo',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'hi' },
      ],
      Stream: false,
      Temperature: 0.7,
      TopP: 0.9,
      Stop: ['END'],
    });
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: HUNYUAN_QUOTA, prompt_tokens: 11, completion_tokens: 6 });
  });

  it('streams Hunyuan’s SSE as OpenAI chunks, billed from its running usage', async () => {
    const stream = await openai.chat.completions.create({ model: 'hunyuan-turbo', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    for await (const chunk of stream) {
      if (chunk.usage) usages.push(chunk.usage);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe(HUNYUAN_REPLY_TEXT);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 11, completion_tokens: 6 })]);
    expect(tencent.requests[0].body).toMatchObject({ Stream: true });
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: HUNYUAN_QUOTA, prompt_tokens: 11, completion_tokens: 6 });
  });

  it('converts tools and a forced tool, and the tool call back', async () => {
    const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    const answer = await openai.chat.completions.create({
      model: 'hunyuan-turbo',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: weather }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(tencent.requests[0].body).toMatchObject({ ToolChoice: 'custom', CustomTool: { Type: 'function', Function: { Name: 'get_weather', Parameters: JSON.stringify(weather.parameters) } } });
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: null, tool_calls: [{ id: 'call_mock', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: HUNYUAN_QUOTA });
  });

  it('embeds through GetEmbedding, one text or several', async () => {
    const many = await openai.embeddings.create({ model: 'hunyuan-embedding', input: ['one', 'two'], encoding_format: 'float' });
    expect(many.data.map((entry) => entry.embedding)).toEqual([
      [0, 0.5, 0.25],
      [1, 0.5, 0.25],
    ]);
    expect(tencent.requests[0].headers['x-tc-action']).toBe('GetEmbedding');
    expect(tencent.requests[0].body).toEqual({ InputList: ['one', 'two'] });
    expect(await seed.lastConsumeLog(token.id)).toMatchObject({ quota: EMBEDDING_QUOTA, prompt_tokens: 6 });

    const one = await openai.embeddings.create({ model: 'hunyuan-embedding', input: 'one' });
    expect(one.data).toHaveLength(1);
    expect(tencent.requests[1].body).toEqual({ Input: 'one' });
  });

  it('auto-disables a channel whose signature Tencent refuses (an error inside a 200 answer), without showing a secret', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'hunyuan-broken', type: 23, base_url: tencent.url, models: 'hunyuan-broken', key: `1300000001|${TENCENT_SECRET_ID}|wrong-secret-key-0123456789` });
    const refused = await openai.chat.completions.create({ model: 'hunyuan-broken', messages: [{ role: 'user', content: 'hi' }], stream: true }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unauthorized' });
    expect(JSON.stringify(refused)).not.toMatch(/wrong-secret-key|AKIDmock/);
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
  });

  it('auto-disables an account in arrears, and answers an error inside the stream as the provider’s fault without disabling', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const arrears = await seed.createChannel({ name: 'hunyuan-arrears', type: 23, base_url: tencent.url, models: 'hunyuan-arrears', key: TENCENT_KEY });
    tencent.handler = () => tencentError('FailedOperation.ServiceStopArrears', '账号已欠费停服');
    const refused = await openai.chat.completions.create({ model: 'hunyuan-arrears', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
    expect(await seed.channelStatusEventually(arrears, 3)).toBe(3);

    const slow = await seed.createChannel({ name: 'hunyuan-slow', type: 23, base_url: tencent.url, models: 'hunyuan-slow', key: TENCENT_KEY });
    tencent.handler = () => ({ sse: [JSON.stringify({ Note: '', Id: 'req-timeout', ErrorMsg: { Code: 4001, Msg: '请求模型超时' } })] });
    const timedOut = await openai.chat.completions.create({ model: 'hunyuan-slow', messages: [{ role: 'user', content: 'hi' }], stream: true }).catch((error: unknown) => error);
    expect(timedOut).toMatchObject({ status: 503 });
    expect(String((timedOut as Error).message)).toContain('4001');
    expect((await seed.channel(slow)).status).toBe(1);
  });

  it('tests a Hunyuan channel and lists the known models', async () => {
    const id = await seed.createChannel({ name: 'hunyuan-probe', type: 23, base_url: tencent.url, models: 'hunyuan-probe', test_model: 'hunyuan-probe', key: TENCENT_KEY });
    expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
    expect(tencent.requests[0].body).toMatchObject({ Model: 'hunyuan-probe', Messages: [{ Role: 'user', Content: 'hi' }] });
    expect((await root.get(`/api/channel/fetch_models/${id}`).expect(200)).body.data).toEqual(expect.arrayContaining(['hunyuan-turbo', 'hunyuan-embedding']));
  });
});
