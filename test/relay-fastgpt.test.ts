import OpenAI from 'openai';
import { FASTGPT_REPLY_TEXT, fastGptReply } from './support/mock-fastgpt';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

const KEY = 'fastgpt-upstream-secret-key';
const PRICES = { ModelRatio: { 'fastgpt-app': 1, 'fastgpt-bad': 1 }, CompletionRatio: { 'fastgpt-app': 2 } };

describe('relay: FastGPT channels (type 22)', () => {
  let fastgpt: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: fastgpt, seed, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    // The base URL as FastGPT's docs give it: the API root ends in /api.
    await seed.createChannel({ name: 'fastgpt', type: 22, base_url: `${fastgpt.url}/api`, models: 'fastgpt-app', key: KEY });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    fastgpt.reset();
    fastgpt.handler = fastGptReply(KEY);
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('bills a real usage in the answer exactly, with detail forced off and the client’s chatId and variables passed on', async () => {
    fastgpt.handler = fastGptReply(KEY, { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
    const body = { model: 'fastgpt-app', messages: [{ role: 'user' as const, content: 'hi' }], chatId: 'client-chat-7', detail: true, variables: { name: 'Ann' } };
    const answer = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(answer.choices[0].message.content).toBe(FASTGPT_REPLY_TEXT);
    expect(answer).not.toHaveProperty('responseData');
    expect(answer.usage).toEqual({ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
    const sent = fastgpt.requests[0];
    expect(sent.path).toBe('/api/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ detail: false, chatId: 'client-chat-7', variables: { name: 'Ann' } });
    expect(await lastLog()).toMatchObject({ quota: 40 + 12 * 2, prompt_tokens: 40, completion_tokens: 12 });
  });

  it('counts FastGPT’s stand-in usage (1/1/1) locally instead, and sends no chatId of its own', async () => {
    const answer = await openai.chat.completions.create({ model: 'fastgpt-app', messages: [{ role: 'user', content: 'Tell me something about the weather today, please.' }] });
    expect(answer.choices[0].message.content).toBe(FASTGPT_REPLY_TEXT);
    expect(answer.usage).toBeUndefined();
    expect(fastgpt.requests[0].body).not.toHaveProperty('chatId');
    const log = await lastLog();
    expect(log.prompt_tokens).toBeGreaterThan(5);
    expect(log.completion_tokens).toBeGreaterThan(1);
    expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens * 2);
  });

  it('streams as OpenAI chunks, counted locally', async () => {
    const stream = await openai.chat.completions.create({ model: 'fastgpt-app', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(FASTGPT_REPLY_TEXT);
    expect(fastgpt.requests[0].body).toMatchObject({ stream: true, detail: false });
    const log = await lastLog();
    expect(log.completion_tokens).toBeGreaterThan(1);
    expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens * 2);
  });

  it('disables a channel whose key FastGPT refuses inside a 200 answer (unAuthApiKey), never showing the key', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const bad = await seed.createChannel({ name: 'fastgpt-bad', type: 22, base_url: `${fastgpt.url}/api`, models: 'fastgpt-bad', key: 'fastgpt-wrong-secret-key' });
    const refused = await openai.chat.completions.create({ model: 'fastgpt-bad', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(JSON.stringify((refused as InstanceType<typeof OpenAI.APIError>).error)).not.toContain('fastgpt-wrong-secret-key');
    expect(await seed.channelStatusEventually(bad, 3)).toBe(3);
    expect(JSON.stringify(await seed.consumeLogs({ tokenId: token.id }))).not.toContain(KEY);
    await seed.setOption('AutomaticDisableChannelEnabled', false);
  });
});
