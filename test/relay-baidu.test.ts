import type OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import type { Session } from './support/accounts';
import { baiduError, ERNIE_REPLY_TEXT, MockBaidu } from './support/mock-baidu';
import { MOCK_REPLY_TEXT, type MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. The mock ERNIE reports 9 prompt
 * and 6 completion tokens: 9 + 6 × 2 = 21 quota; an embedding 4 prompt tokens: 4 quota.
 */
const CHAT_QUOTA = 21;
const EMBEDDING_QUOTA = 4;
const PRICES = {
  ModelRatio: { 'ernie-4.0-8k': 1, 'ernie-3.5-8k': 1, 'embedding-v1': 1, 'gpt-test': 1, 'ernie-busy': 1, 'ernie-quota': 1, 'ernie-badkey': 1 },
  CompletionRatio: { 'ernie-4.0-8k': 2, 'ernie-3.5-8k': 2 },
};
const CHAT_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro';

describe('relay: Baidu Wenxin channels (type 15)', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let openaiUpstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;
  let channelId: number;
  const baidu = new MockBaidu();
  const key = `${baidu.apiKey}|${baidu.secretKey}`;
  /** Everything the gateway printed while these tests ran: no token, key or secret may be in it. */
  const printed: string[] = [];
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

  beforeAll(async () => {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => (printed.push(String(chunk)), writes.out(chunk, ...rest))) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (printed.push(String(chunk)), writes.err(chunk, ...rest))) as typeof process.stderr.write;
    ({ app, native: upstream, openaiUpstream, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    channelId = await seed.createChannel({ name: 'baidu', type: CHANNEL_TYPE.BAIDU, base_url: upstream.url, models: 'ernie-4.0-8k,ernie-3.5-8k,embedding-v1', key });
  });
  afterAll(async () => {
    await stop();
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  });
  beforeEach(async () => {
    upstream.reset();
    upstream.handler = baidu.reply;
    openaiUpstream.reset();
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }
  const chatCalls = () => upstream.requests.filter((request) => request.path.startsWith('/rpc/'));
  const tokenCalls = () => upstream.requests.filter((request) => request.path.startsWith('/oauth/'));

  it("relays a chat to the model's endpoint in ERNIE's body, the token only in the query, billed from ERNIE's usage", async () => {
    const answer = await openai.chat.completions.create({
      model: 'ernie-4.0-8k',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 100,
      temperature: 0.5,
      user: 'alice-1',
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: ERNIE_REPLY_TEXT }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });

    const [exchange] = tokenCalls();
    // The credentials go in the form body, never in a URL.
    expect(exchange.path).toBe('/oauth/2.0/token');
    expect(new URLSearchParams(exchange.raw.toString())).toEqual(new URLSearchParams({ grant_type: 'client_credentials', client_id: baidu.apiKey, client_secret: baidu.secretKey }));
    const [sent] = chatCalls();
    const url = new URL(sent.path, 'http://mock');
    expect(url.pathname).toBe(CHAT_PATH);
    expect(url.searchParams.get('access_token')).toBe(baidu.tokens[0]);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ messages: [{ role: 'user', content: 'Hello' }], system: 'Be brief.', max_output_tokens: 100, temperature: 0.5, user_id: 'alice-1' });

    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 9, completion_tokens: 6, channel_id: channelId });
  });

  it('streams as OpenAI chunks, with the usage chunk when asked, billed from the last usage', async () => {
    const stream = await openai.chat.completions.create({ model: 'ernie-3.5-8k', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    const finishes = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe(ERNIE_REPLY_TEXT);
    expect(finishes).toEqual(['stop']);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 9, completion_tokens: 6 })]);
    expect(new URL(chatCalls()[0].path, 'http://mock').pathname).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions');
    expect(chatCalls()[0].body).toMatchObject({ stream: true });
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 9, completion_tokens: 6 });
  });

  it('embeds through the embedding model’s endpoint, billed from its usage', async () => {
    const result = await openai.embeddings.create({ model: 'embedding-v1', input: ['one', 'two'], encoding_format: 'float' });
    expect(result.data.map((entry) => entry.embedding)).toEqual([
      [0, 0.5, 0.25],
      [1, 0.5, 0.25],
    ]);
    const [sent] = chatCalls();
    expect(new URL(sent.path, 'http://mock').pathname).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
    expect(sent.body).toEqual({ input: ['one', 'two'] });
    expect(await lastLog()).toMatchObject({ quota: EMBEDDING_QUOTA, prompt_tokens: 4 });
  });

  it('keeps the token, and renews it once when Baidu says it expired (error 111), retrying the call', async () => {
    const issued = baidu.tokens.length;
    await openai.chat.completions.create({ model: 'ernie-4.0-8k', messages: [{ role: 'user', content: 'hi' }] });
    expect(tokenCalls()).toHaveLength(0);

    baidu.expire(baidu.tokens[baidu.tokens.length - 1]);
    const answer = await openai.chat.completions.create({ model: 'ernie-4.0-8k', messages: [{ role: 'user', content: 'again' }] });
    expect(answer.choices[0].message.content).toBe(ERNIE_REPLY_TEXT);
    expect(tokenCalls()).toHaveLength(1);
    expect(baidu.tokens).toHaveLength(issued + 1);
    const used = chatCalls().map((request) => new URL(request.path, 'http://mock').searchParams.get('access_token'));
    expect(used).toEqual([baidu.tokens[issued - 1], baidu.tokens[issued - 1], baidu.tokens[issued]]);
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA });
    expect((await seed.channel(channelId)).status).toBe(1);
  });

  it("answers Baidu's errors inside 200 answers: the request's own fault passes to the client, scrubbed of the token", async () => {
    const current = baidu.tokens[baidu.tokens.length - 1];
    baidu.nextError = baiduError(336003, `temperature is invalid, request https://aip.baidubce.com${CHAT_PATH}?access_token=${current} refused`);
    const refused = await openai.chat.completions.create({ model: 'ernie-4.0-8k', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: '336003' });
    const message = String((refused as Error).message);
    expect(message).toContain('temperature is invalid');
    expect(message).not.toContain(current);
    expect(message).not.toContain('aip.baidubce.com');
    expect((await seed.channel(channelId)).status).toBe(1);

    // The same error in a stream: the stream's request is answered with JSON, as Baidu does.
    baidu.nextError = baiduError(336003, 'temperature is invalid');
    const streamed = await openai.chat.completions.create({ model: 'ernie-4.0-8k', messages: [{ role: 'user', content: 'hi' }], stream: true }).catch((error: unknown) => error);
    expect(streamed).toMatchObject({ status: 400, code: '336003' });
  });

  it('fails over on a rate limit (error 18), and disables a channel whose quota is spent (error 17)', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    await seed.setOption('RetryTimes', 1);
    const busy = await seed.createChannel({ name: 'baidu-busy', type: CHANNEL_TYPE.BAIDU, base_url: upstream.url, models: 'ernie-busy', key, priority: 10 });
    await seed.createChannel({ name: 'openai-busy', base_url: openaiUpstream.url, models: 'ernie-busy', priority: 0 });
    baidu.nextError = baiduError(18, 'Open api qps request limit reached');
    const answered = await openai.chat.completions.create({ model: 'ernie-busy', messages: [{ role: 'user', content: 'hi' }] });
    expect(answered.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect((await seed.channel(busy)).status).toBe(1);

    // A stream: the error comes as its first event.
    upstream.handler = (request) => (request.path.startsWith('/rpc/') ? { sse: [JSON.stringify({ error_code: 18, error_msg: 'Open api qps request limit reached' })] } : baidu.reply(request));
    let text = '';
    for await (const chunk of await openai.chat.completions.create({ model: 'ernie-busy', messages: [{ role: 'user', content: 'hi' }], stream: true })) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(MOCK_REPLY_TEXT);
    upstream.handler = baidu.reply;

    const spent = await seed.createChannel({ name: 'baidu-spent', type: CHANNEL_TYPE.BAIDU, base_url: upstream.url, models: 'ernie-quota', key });
    baidu.nextError = baiduError(17, 'Open api daily request limit reached');
    const exhausted = await openai.chat.completions.create({ model: 'ernie-quota', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(exhausted).toMatchObject({ status: 502 });
    expect(await seed.channelStatusEventually(spent, 3)).toBe(3);
  });

  it('disables a channel whose key Baidu refuses, and shows no key, secret or token in any answer, log row or printed line', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'baidu-broken', type: CHANNEL_TYPE.BAIDU, base_url: upstream.url, models: 'ernie-badkey', key: `${baidu.apiKey}|wrong-secret-9999` });
    const refused = await openai.chat.completions.create({ model: 'ernie-badkey', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unauthorized' });
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
    expect(chatCalls()).toHaveLength(0);
    expect(JSON.parse(String((await seed.channel(broken)).other_info))).toMatchObject({ status_reason: expect.stringContaining('401') });

    const secrets = [baidu.secretKey, 'wrong-secret-9999', ...baidu.tokens];
    const dataSource = app.app.get(DataSource);
    const stored = JSON.stringify([await dataSource.query('SELECT * FROM logs'), await dataSource.query('SELECT id, other_info FROM channels')]);
    const seen = [String((refused as Error).message), stored, printed.join('')];
    for (const text of seen) for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('tests the channel through the same token, and lists the models it maps', async () => {
    const probe = await seed.createChannel({ name: 'baidu-probe', type: CHANNEL_TYPE.BAIDU, base_url: upstream.url, models: 'ernie-4.0-8k', test_model: 'ernie-4.0-8k', key });
    expect((await root.get(`/api/channel/test/${probe}`).expect(200)).body).toMatchObject({ success: true });
    expect(new URL(chatCalls()[0].path, 'http://mock').pathname).toBe(CHAT_PATH);

    baidu.nextError = baiduError(17, 'Open api daily request limit reached');
    expect((await root.get(`/api/channel/test/${probe}`).expect(200)).body).toMatchObject({ success: false, message: expect.stringContaining('status 429') });

    const models = (await root.get(`/api/channel/fetch_models/${probe}`).expect(200)).body.data as string[];
    expect(models).toEqual(expect.arrayContaining(['ernie-4.0-8k', 'ernie-3.5-8k', 'embedding-v1', 'bge-large-zh']));
  });
});
