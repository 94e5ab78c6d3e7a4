import { COZE_BROKE_TOKEN, COZE_REPLY_TEXT, cozeReply } from './support/mock-coze';
import { useProviderRelay } from './support/provider-relay';

const TOKEN = 'pat_upstream_secret_token';
const BOT = '7379462189365198898';
/** At QuotaPerUnit 500000 a ratio r costs r quota per token: 25 input + 8 output × 2 = 41. */
const COZE_QUOTA = 41;
const PRICES = { ModelRatio: { 'coze-bot': 1, 'coze-bad': 1, 'coze-broke': 1 }, CompletionRatio: { 'coze-bot': 2 } };

describe('relay: Coze channels (type 49)', () => {
  const relay = useProviderRelay(PRICES, () => cozeReply(TOKEN));
  let channel: number;
  beforeAll(async () => {
    // The model name is the bot id: the channel maps its clients' name onto it.
    channel = await relay.seed.createChannel({ name: 'coze', type: 49, base_url: relay.native.url, models: 'coze-bot', key: TOKEN, model_mapping: JSON.stringify({ 'coze-bot': BOT }) });
  });

  it('answers a non-streaming client from a collected stream, billed from the chat’s usage exactly', async () => {
    const answer = await relay.openai.chat.completions.create({ model: 'coze-bot', user: 'alice-42', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(COZE_REPLY_TEXT);
    expect(answer.model).toBe('coze-bot');
    expect(answer.usage).toEqual({ prompt_tokens: 25, completion_tokens: 8, total_tokens: 33 });
    expect(relay.native.requests).toHaveLength(1);
    const sent = relay.native.requests[0];
    expect(sent.path).toBe('/v3/chat');
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.body).toEqual({ bot_id: BOT, user_id: 'alice-42', stream: true, auto_save_history: false, additional_messages: [{ role: 'user', content: 'hi', content_type: 'text' }] });
    expect(await relay.lastLog()).toMatchObject({ quota: COZE_QUOTA, prompt_tokens: 25, completion_tokens: 8 });
  });

  it('streams the answer deltas (reasoning apart), billed from conversation.chat.completed', async () => {
    const stream = await relay.openai.chat.completions.create({ model: 'coze-bot', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let reasoning = '';
    const usages = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      text += delta?.content ?? '';
      reasoning += delta?.reasoning_content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect({ text, reasoning }).toEqual({ text: COZE_REPLY_TEXT, reasoning: 'Greeting back.' });
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 25, completion_tokens: 8 })]);
    expect(relay.native.requests[0].body).toMatchObject({ user_id: 'api-gateway', stream: true });
    expect(await relay.lastLog()).toMatchObject({ quota: COZE_QUOTA, prompt_tokens: 25, completion_tokens: 8 });
  });

  it('tests a Coze channel through the collected stream', async () => {
    expect((await relay.root.get(`/api/channel/test/${channel}?model=coze-bot`).expect(200)).body).toMatchObject({ success: true });
    expect(relay.native.requests[0].body).toMatchObject({ bot_id: BOT, stream: true });
  });

  it('disables a channel whose token Coze refuses ({code: 4100} in a 200 answer), and one out of quota (4028)', async () => {
    const chat = (stream: boolean) => (model: string) => relay.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream });
    await relay.expectAutoDisabled({ type: 49, key: 'pat_wrong_secret_token', model: 'coze-bad' }, chat(true));
    await relay.expectAutoDisabled({ type: 49, key: COZE_BROKE_TOKEN, model: 'coze-broke' }, chat(false));
    expect(JSON.stringify(await relay.seed.consumeLogs({ tokenId: relay.token.id }))).not.toContain(TOKEN);
  });
});
