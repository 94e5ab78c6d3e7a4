import { MINIMAX_BROKE_KEY, MINIMAX_REPLY_TEXT, miniMaxReply } from './support/mock-minimax';
import { useProviderRelay } from './support/provider-relay';

const KEY = 'mm-upstream-secret-key';
/** At QuotaPerUnit 500000 a ratio r costs r quota per token: 21 prompt + 9 completion × 2 = 39. */
const CHAT_QUOTA = 39;
const PRICES = { ModelRatio: { 'minimax-test': 1, 'embo-test': 1, 'minimax-bad': 1, 'minimax-broke': 1 }, CompletionRatio: { 'minimax-test': 2 } };

describe('relay: MiniMax channels (type 35)', () => {
  const relay = useProviderRelay(PRICES, () => miniMaxReply(KEY));
  beforeAll(() => relay.seed.createChannel({ name: 'minimax', type: 35, base_url: relay.native.url, models: 'minimax-test,embo-test', key: KEY }));

  it('relays a chat to chat completion v2 and bills its usage exactly, without MiniMax’s own fields', async () => {
    const answer = await relay.openai.chat.completions.create({ model: 'minimax-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message).toEqual({ role: 'assistant', content: MINIMAX_REPLY_TEXT });
    expect(answer.model).toBe('minimax-test');
    expect(answer).not.toHaveProperty('base_resp');
    expect(answer.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 9 });
    const sent = relay.native.requests[0];
    expect(sent.path).toBe('/v1/text/chatcompletion_v2');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: 'minimax-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(await relay.lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 21, completion_tokens: 9 });
  });

  it('streams the deltas once (the last event’s repeated message is not sent again), billed from the last event’s usage', async () => {
    const stream = await relay.openai.chat.completions.create({ model: 'minimax-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    const finishes = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe(MINIMAX_REPLY_TEXT);
    expect(finishes).toEqual(['stop']);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 21, completion_tokens: 9 })]);
    expect(await relay.lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 21, completion_tokens: 9 });
  });

  it('converts embeddings to MiniMax’s texts and back, billed from total_tokens', async () => {
    const result = await relay.openai.embeddings.create({ model: 'embo-test', input: ['one', 'two'], encoding_format: 'float' });
    expect(result.data.map((entry) => entry.embedding)).toEqual([[0, 0.5, 0.25], [1, 0.5, 0.25]]);
    expect(relay.native.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'embo-test', texts: ['one', 'two'], type: 'db' } });
    // The SDK's default asks for base64, which the gateway encodes from MiniMax's floats.
    const encoded = await relay.openai.embeddings.create({ model: 'embo-test', input: 'one' });
    expect(encoded.data[0].embedding).toEqual([0, 0.5, 0.25]);
    expect(await relay.lastLog()).toMatchObject({ quota: 6, prompt_tokens: 6, completion_tokens: 0 });
  });

  it('disables a channel whose key MiniMax refuses inside a 200 answer (1004), and one without balance (1008)', async () => {
    const chat = (stream: boolean) => (model: string) => relay.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream });
    await relay.expectAutoDisabled({ type: 35, key: 'mm-wrong-secret-key', model: 'minimax-bad' }, chat(false));
    await relay.expectAutoDisabled({ type: 35, key: MINIMAX_BROKE_KEY, model: 'minimax-broke' }, chat(true));
    expect(JSON.stringify(await relay.seed.consumeLogs({ tokenId: relay.token.id }))).not.toContain(KEY);
  });

  it('answers a Claude client through the same channel', async () => {
    const response = await fetch(`${relay.app.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': relay.token.apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'minimax-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await response.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: MINIMAX_REPLY_TEXT }], usage: { input_tokens: 21, output_tokens: 9 } });
  });
});
