import OpenAI from 'openai';
import { FASTGPT_REPLY_TEXT, fastGptReply } from './support/mock-fastgpt';
import { useProviderRelay } from './support/provider-relay';

const KEY = 'fastgpt-upstream-secret-key';
const PRICES = { ModelRatio: { 'fastgpt-app': 1, 'fastgpt-bad': 1 }, CompletionRatio: { 'fastgpt-app': 2 } };

describe('relay: FastGPT channels (type 22)', () => {
  const relay = useProviderRelay(PRICES, () => fastGptReply(KEY));
  // The base URL as FastGPT's docs give it: the API root ends in /api.
  beforeAll(() => relay.seed.createChannel({ name: 'fastgpt', type: 22, base_url: `${relay.native.url}/api`, models: 'fastgpt-app', key: KEY }));

  it('bills a real usage in the answer exactly, with detail forced off and the client’s chatId and variables passed on', async () => {
    relay.native.handler = fastGptReply(KEY, { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
    const body = { model: 'fastgpt-app', messages: [{ role: 'user' as const, content: 'hi' }], chatId: 'client-chat-7', detail: true, variables: { name: 'Ann' } };
    const answer = await relay.openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(answer.choices[0].message.content).toBe(FASTGPT_REPLY_TEXT);
    expect(answer).not.toHaveProperty('responseData');
    expect(answer.usage).toEqual({ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
    const sent = relay.native.requests[0];
    expect(sent.path).toBe('/api/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ detail: false, chatId: 'client-chat-7', variables: { name: 'Ann' } });
    expect(await relay.lastLog()).toMatchObject({ quota: 40 + 12 * 2, prompt_tokens: 40, completion_tokens: 12 });
  });

  it('counts FastGPT’s stand-in usage (1/1/1) locally instead, and sends no chatId of its own', async () => {
    const answer = await relay.openai.chat.completions.create({ model: 'fastgpt-app', messages: [{ role: 'user', content: 'Tell me something about the weather today, please.' }] });
    expect(answer.choices[0].message.content).toBe(FASTGPT_REPLY_TEXT);
    expect(answer.usage).toBeUndefined();
    expect(relay.native.requests[0].body).not.toHaveProperty('chatId');
    const { quota, prompt_tokens: prompt, completion_tokens: completion } = await relay.lastLog();
    expect(prompt).toBeGreaterThan(5);
    expect(completion).toBeGreaterThan(1);
    expect(quota).toBe(Number(prompt) + Number(completion) * 2);
  });

  it('streams as OpenAI chunks, counted locally', async () => {
    const stream = await relay.openai.chat.completions.create({ model: 'fastgpt-app', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(FASTGPT_REPLY_TEXT);
    expect(relay.native.requests[0].body).toMatchObject({ stream: true, detail: false });
    const { quota, prompt_tokens: prompt, completion_tokens: completion } = await relay.lastLog();
    expect(completion).toBeGreaterThan(1);
    expect(quota).toBe(Number(prompt) + Number(completion) * 2);
  });

  it('disables a channel whose key FastGPT refuses inside a 200 answer (unAuthApiKey)', async () => {
    const chat = (model: string) => relay.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    await relay.expectAutoDisabled({ type: 22, key: 'fastgpt-wrong-secret-key', model: 'fastgpt-bad', base_url: `${relay.native.url}/api` }, chat);
  });
});
