import { DIFY_REPLY_TEXT, difyReply } from './support/mock-dify';
import { useProviderRelay } from './support/provider-relay';

const KEY = 'app-upstream-secret-key';
/** At QuotaPerUnit 500000 a ratio r costs r quota per token: 50 prompt + 10 completion × 2 = 70. */
const DIFY_QUOTA = 70;
const PRICES = { ModelRatio: { 'dify-app': 1, 'dify-bad': 1 }, CompletionRatio: { 'dify-app': 2 } };

describe('relay: Dify channels (type 37)', () => {
  const relay = useProviderRelay(PRICES, () => difyReply(KEY));
  beforeAll(() => relay.seed.createChannel({ name: 'dify', type: 37, base_url: relay.native.url, models: 'dify-app', key: KEY }));

  it('asks the app in blocking mode with the conversation as its query, and bills metadata.usage exactly', async () => {
    const answer = await relay.openai.chat.completions.create({
      model: 'dify-app',
      user: 'alice-42',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
      ],
    });
    expect(answer.choices[0].message.content).toBe(DIFY_REPLY_TEXT);
    expect(answer.model).toBe('dify-app');
    expect(answer.usage).toEqual({ prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 });
    const sent = relay.native.requests[0];
    expect(sent.path).toBe('/v1/chat-messages');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      inputs: {},
      query: 'USER:\nHi\n\nASSISTANT:\nHello!\n\nUSER:\nWhat is this?',
      response_mode: 'blocking',
      user: 'alice-42',
      auto_generate_name: false,
      files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://example.com/cat.png' }],
    });
    expect(sent.body).not.toHaveProperty('conversation_id');
    expect(await relay.lastLog()).toMatchObject({ quota: DIFY_QUOTA, prompt_tokens: 50, completion_tokens: 10 });
  });

  it('streams message and agent_message text, billed from message_end, under the default user', async () => {
    const stream = await relay.openai.chat.completions.create({ model: 'dify-app', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe(DIFY_REPLY_TEXT);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 50, completion_tokens: 10 })]);
    expect(relay.native.requests[0].body).toMatchObject({ query: 'hi', response_mode: 'streaming', user: 'api-gateway' });
    expect(await relay.lastLog()).toMatchObject({ quota: DIFY_QUOTA, prompt_tokens: 50, completion_tokens: 10 });
  });

  it('answers an error event met before any answer as the attempt’s error, in its status (the request’s fault: 400)', async () => {
    relay.native.handler = () => ({ status: 200, text: 'data: {"event":"error","status":400,"code":"completion_request_error","message":"the model failed"}\n\n', contentType: 'text/event-stream' });
    const stream = relay.openai.chat.completions.create({ model: 'dify-app', messages: [{ role: 'user', content: 'hi' }], stream: true });
    await expect(stream).rejects.toMatchObject({ status: 400 });
  });

  it('disables a channel whose app key Dify refuses (401)', async () => {
    await relay.expectAutoDisabled({ type: 37, key: 'app-wrong-secret-key', model: 'dify-bad' }, (model) => relay.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }));
    expect(JSON.stringify(await relay.seed.consumeLogs({ tokenId: relay.token.id }))).not.toContain(KEY);
  });
});
