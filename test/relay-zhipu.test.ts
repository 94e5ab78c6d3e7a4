import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Session } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { ZHIPU_ID, ZHIPU_KEY, ZHIPU_PLAIN_KEY, ZHIPU_REPLY_TEXT, ZHIPU_SECRET, zhipuReply } from './support/mock-zhipu';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. The mock Zhipu reports 21 prompt
 * and 8 completion tokens: 21 + 8 × 2 = 37 quota.
 */
const ZHIPU_QUOTA = 37;
const PRICES = {
  ModelRatio: { chatglm_turbo: 1, 'chatglm-broken': 1, 'chatglm-arrears': 1, 'glm-4-flash': 1, 'glm-plain': 1, 'glm-broken': 1, 'glm-arrears': 1, 'embedding-3': 1, 'gpt-test': 1 },
  CompletionRatio: { chatglm_turbo: 2, 'glm-4-flash': 2, 'glm-plain': 2 },
};
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

describe('relay: Zhipu channels (v3, type 16; v4, type 26)', () => {
  let app: TestApp;
  let zhipu: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let v4Channel: number;
  let lastLog: NativeRelayTestbed['lastLog'];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, native: zhipu, seed, root, token, openai, lastLog, stop } = await startNativeRelayTestbed(PRICES));
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    await seed.createChannel({ name: 'zhipu-v3', type: 16, base_url: zhipu.url, models: 'chatglm_turbo', key: ZHIPU_KEY });
    v4Channel = await seed.createChannel({ name: 'zhipu-v4', type: 26, base_url: zhipu.url, models: 'glm-4-flash,embedding-3', key: ZHIPU_KEY });
    await seed.createChannel({ name: 'zhipu-v4-plain', type: 26, base_url: zhipu.url, models: 'glm-plain', key: ZHIPU_PLAIN_KEY });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    zhipu.reset();
    zhipu.handler = zhipuReply;
    await seed.flush();
  });

  /** An error the client got, with nothing secret in it. */
  function expectNoSecret(error: unknown): void {
    const text = JSON.stringify(error) + String((error as Error).message);
    for (const secret of [ZHIPU_SECRET, ZHIPU_KEY, ZHIPU_PLAIN_KEY, token.key]) expect(text).not.toContain(secret);
  }

  describe('v3: the model API, converted', () => {
    it('converts a chat into a prompt, signs the JWT the mock verifies, and bills the usage exactly', async () => {
      const answer = await openai.chat.completions.create({
        model: 'chatglm_turbo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
        temperature: 1.6,
      });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: ZHIPU_REPLY_TEXT }, finish_reason: 'stop' });
      expect(answer.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 8 });
      const sent = zhipu.requests[0];
      expect(sent.path).toBe('/api/paas/v3/model-api/chatglm_turbo/invoke');
      expect(sent.headers.authorization).toMatch(JWT);
      expect(sent.body).toEqual({
        prompt: [
          { role: 'user', content: 'Be brief.' },
          { role: 'assistant', content: 'Okay' },
          { role: 'user', content: 'hi' },
        ],
        temperature: 1,
      });
      expect(await lastLog()).toMatchObject({ quota: ZHIPU_QUOTA, prompt_tokens: 21, completion_tokens: 8 });
    });

    it('streams sse-invoke as OpenAI chunks, the usage from the finish event’s meta', async () => {
      const stream = await openai.chat.completions.create({ model: 'chatglm_turbo', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      const usages = [];
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usages.push(chunk.usage);
      }
      expect(text).toBe(ZHIPU_REPLY_TEXT);
      expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 21, completion_tokens: 8 })]);
      expect(zhipu.requests[0].path).toBe('/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
      expect(zhipu.requests[0].body).toMatchObject({ incremental: true });
      expect(await lastLog()).toMatchObject({ quota: ZHIPU_QUOTA, prompt_tokens: 21, completion_tokens: 8 });
    });

    it("converts the Anthropic client's Messages too, streamed, billed from v3's usage", async () => {
      const anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
      const stream = anthropic.messages.stream({ model: 'chatglm_turbo', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(text).toBe(ZHIPU_REPLY_TEXT);
      expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 8 });
      expect(zhipu.requests[0].body).toMatchObject({ prompt: [{ role: 'user', content: 'Be brief.' }, { role: 'assistant', content: 'Okay' }, { role: 'user', content: 'hi' }], incremental: true });
      expect(await lastLog()).toMatchObject({ quota: ZHIPU_QUOTA });
    });

    it('disables a channel whose token Zhipu refuses inside a 200 answer, and fails over', async () => {
      await seed.setOption('RetryTimes', 1);
      try {
        const broken = await seed.createChannel({ name: 'zhipu-v3-broken', type: 16, base_url: zhipu.url, models: 'chatglm-broken', key: `${ZHIPU_ID}.not-the-secret`, priority: 10 });
        const backup = await seed.createChannel({ name: 'zhipu-v3-backup', type: 16, base_url: zhipu.url, models: 'chatglm-broken', key: ZHIPU_KEY, priority: 0 });
        const answer = await openai.chat.completions.create({ model: 'chatglm-broken', messages: [{ role: 'user', content: 'hi' }] });
        expect(answer.choices[0].message.content).toBe(ZHIPU_REPLY_TEXT);
        expect(zhipu.requests).toHaveLength(2);
        expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
        expect(JSON.parse(String((await seed.channel(broken)).other_info)).status_reason).not.toContain('not-the-secret');
        expect((await seed.channel(backup)).status).toBe(1);
      } finally {
        await seed.setOption('RetryTimes', 0);
      }
    });

    it('disables a channel in arrears (code 1113 inside a 200), showing the client no secret', async () => {
      const arrears = await seed.createChannel({ name: 'zhipu-v3-arrears', type: 16, base_url: zhipu.url, models: 'chatglm-arrears', key: ZHIPU_KEY });
      zhipu.handler = () => ({ status: 200, json: { code: 1113, msg: '您的账户已欠费，请充值后重试。', success: false } });
      const refused = await openai.chat.completions.create({ model: 'chatglm-arrears', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      expectNoSecret(refused);
      expect(await seed.channelStatusEventually(arrears, 3)).toBe(3);
    });

    it('tests the channel and answers its known models', async () => {
      const id = await seed.createChannel({ name: 'zhipu-v3-probe', type: 16, base_url: zhipu.url, models: 'chatglm_std', test_model: 'chatglm_std', key: ZHIPU_KEY });
      expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
      expect(zhipu.requests[0].path).toBe('/api/paas/v3/model-api/chatglm_std/invoke');
      expect((await root.get(`/api/channel/fetch_models/${id}`).expect(200)).body.data).toContain('chatglm_turbo');
    });
  });

  describe('v4: OpenAI-shaped, under /api/paas/v4', () => {
    it('relays a chat with the JWT as the bearer token, billed from the usage', async () => {
      const answer = await openai.chat.completions.create({ model: 'glm-4-flash', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0].message.content).toBe(ZHIPU_REPLY_TEXT);
      expect(zhipu.requests[0].path).toBe('/api/paas/v4/chat/completions');
      expect(zhipu.requests[0].headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(await lastLog()).toMatchObject({ quota: ZHIPU_QUOTA, prompt_tokens: 21, completion_tokens: 8 });
    });

    it('streams with the usage in the last chunk, and bills it', async () => {
      const stream = await openai.chat.completions.create({ model: 'glm-4-flash', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(ZHIPU_REPLY_TEXT);
      expect(zhipu.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(await lastLog()).toMatchObject({ quota: ZHIPU_QUOTA, prompt_tokens: 21, completion_tokens: 8 });
    });

    it('embeds, and sends a key that is not id.secret as it is', async () => {
      const result = await openai.embeddings.create({ model: 'embedding-3', input: ['one', 'two'], encoding_format: 'float' });
      expect(result.data.map((entry) => entry.embedding)).toEqual([[0, 0.5], [1, 0.5]]);
      expect(zhipu.requests[0].path).toBe('/api/paas/v4/embeddings');
      expect(await lastLog()).toMatchObject({ quota: 6, prompt_tokens: 6 });

      await openai.chat.completions.create({ model: 'glm-plain', messages: [{ role: 'user', content: 'hi' }] });
      expect(zhipu.requests[1].headers.authorization).toBe(`Bearer ${ZHIPU_PLAIN_KEY}`);
    });

    it("disables a channel on Zhipu's bad-token 401 and on arrears (429, code 1113), showing no secret", async () => {
      const broken = await seed.createChannel({ name: 'zhipu-v4-broken', type: 26, base_url: zhipu.url, models: 'glm-broken', key: `${ZHIPU_ID}.not-the-secret` });
      const refused = await openai.chat.completions.create({ model: 'glm-broken', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      expectNoSecret(refused);
      expect(await seed.channelStatusEventually(broken, 3)).toBe(3);

      const arrears = await seed.createChannel({ name: 'zhipu-v4-arrears', type: 26, base_url: zhipu.url, models: 'glm-arrears', key: ZHIPU_KEY });
      zhipu.handler = () => ({ status: 429, json: { error: { code: '1113', message: '您的账户已欠费，请充值后重试。' } } });
      const exhausted = await openai.chat.completions.create({ model: 'glm-arrears', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(exhausted).toMatchObject({ status: 502 });
      expectNoSecret(exhausted);
      expect(await seed.channelStatusEventually(arrears, 3)).toBe(3);
    });

    it('passes a request error through with its status and Zhipu’s code, leaving the channel enabled', async () => {
      zhipu.handler = () => ({ status: 400, json: { error: { code: '1214', message: 'messages 参数非法。请检查文档。' } } });
      const refused = await openai.chat.completions.create({ model: 'glm-4-flash', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400, code: '1214' });
      expect(String((refused as Error).message)).toContain('messages 参数非法');
      expect((await seed.channel(v4Channel)).status).toBe(1);
    });
  });
});
