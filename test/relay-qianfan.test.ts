import type OpenAI from 'openai';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { QIANFAN_APP_ID, QIANFAN_KEY, qianfanReply } from './support/mock-qianfan';
import { MOCK_REPLY_TEXT, type MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

/** The OpenAI mock reports 12 prompt and 7 completion tokens (19 quota at ratio 1), an embedding 8 prompt tokens. */
const PRICES = { ModelRatio: { 'ernie-4.5-turbo-128k': 1, 'embedding-v1': 1, 'ernie-broken': 1, 'gpt-test': 1 }, CompletionRatio: { 'ernie-4.5-turbo-128k': 1 } };

describe('relay: Baidu Qianfan v2 channels (type 46, OpenAI-compatible under /v2)', () => {
  let qianfan: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: qianfan, seed, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'qianfan', type: CHANNEL_TYPE.BAIDU_V2, base_url: qianfan.url, models: 'ernie-4.5-turbo-128k,embedding-v1', key: QIANFAN_KEY, other: QIANFAN_APP_ID });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    qianfan.reset();
    qianfan.handler = qianfanReply;
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('sends a chat to /v2/chat/completions with the bearer key and the appid header, billed exactly', async () => {
    const answer = await openai.chat.completions.create({ model: 'ernie-4.5-turbo-128k', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    const [sent] = qianfan.requests;
    expect(sent.path).toBe('/v2/chat/completions');
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${QIANFAN_KEY}`, appid: QIANFAN_APP_ID });
    expect(sent.body).toMatchObject({ model: 'ernie-4.5-turbo-128k', messages: [{ role: 'user', content: 'hi' }] });
    expect(await lastLog()).toMatchObject({ quota: 19, prompt_tokens: 12, completion_tokens: 7 });
  });

  it('streams, asking Qianfan for the usage chunk the client did not ask for, and bills it', async () => {
    const stream = await openai.chat.completions.create({ model: 'ernie-4.5-turbo-128k', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usageChunks++;
    }
    expect(text).toBe(MOCK_REPLY_TEXT);
    expect(usageChunks).toBe(0);
    expect(qianfan.requests[0].path).toBe('/v2/chat/completions');
    expect(qianfan.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(await lastLog()).toMatchObject({ quota: 19, prompt_tokens: 12, completion_tokens: 7 });
  });

  it('embeds through /v2/embeddings', async () => {
    const result = await openai.embeddings.create({ model: 'embedding-v1', input: 'one', encoding_format: 'float' });
    expect(result.data[0].embedding).toEqual([0.1, 0.2, 0.3]);
    expect(qianfan.requests[0].path).toBe('/v2/embeddings');
    expect(qianfan.requests[0].headers).toMatchObject({ authorization: `Bearer ${QIANFAN_KEY}`, appid: QIANFAN_APP_ID });
    expect(await lastLog()).toMatchObject({ quota: 8, prompt_tokens: 8 });
  });

  it('takes a base URL pasted with /v2, sends no appid without one, and disables a channel whose key Qianfan refuses', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'qianfan-broken', type: CHANNEL_TYPE.BAIDU_V2, base_url: `${qianfan.url}/v2`, models: 'ernie-broken', key: 'bce-v3/ALTAK-revoked/xyz' });
    const refused = await openai.chat.completions.create({ model: 'ernie-broken', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unauthorized' });
    expect(String((refused as Error).message)).not.toContain('ALTAK-revoked');
    expect(qianfan.requests[0].path).toBe('/v2/chat/completions');
    expect(qianfan.requests[0].headers.appid).toBeUndefined();
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
  });
});
