import type OpenAI from 'openai';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { chatCompletion, chatStreamEvents, MOCK_REPLY_TEXT, MOCK_USAGE, MockUpstream, type MockReply, type ReceivedRequest } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import { startTestApp, type TestApp } from './support/test-app';

const LOWER_CHANNEL_KEY = 'sk-lower-upstream-secret';
/** Ratio 1 (QuotaPerUnit 500000): one quota a token, in both gateways: a chat (12 + 7) costs 19, an embedding (8) 8. */
const PRICES = { ModelRatio: { 'relayed-chat': 1, 'relayed-embed': 1, 'gpt-test': 1 }, CompletionRatio: { 'relayed-chat': 1 } };
const CHAT_QUOTA = MOCK_USAGE.prompt_tokens + MOCK_USAGE.completion_tokens;
const EMBED_QUOTA = 8;
const LOWER_TOKEN_QUOTA = 2_000_000;

/** The lower gateway's upstream: OpenAI's answers, to its own channel key only. */
function openAIReply(request: ReceivedRequest): MockReply | undefined {
  if (request.headers.authorization !== `Bearer ${LOWER_CHANNEL_KEY}`) return { status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } };
  if (request.path === '/v1/chat/completions' && request.body.stream === true) {
    const asked = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    return { sse: chatStreamEvents(String(request.body.model), MOCK_REPLY_TEXT, asked ? MOCK_USAGE : null) };
  }
  if (request.path === '/v1/chat/completions') return { status: 200, json: chatCompletion(String(request.body.model), MOCK_REPLY_TEXT) };
  return undefined;
}

/**
 * Type 60, "another gateway of this kind": the upper gateway (alice's) relays through a channel
 * holding a token of a second instance of this gateway (the lower one, bob's), which relays to
 * a mock OpenAI upstream. Each gateway bills its own caller exactly; the upper one reads the
 * lower one's billing answers as the channel's balance.
 */
describe('relay: another gateway of this kind as a channel (type 60)', () => {
  let lower: TestApp;
  let lowerSeed: RelaySeed;
  let lowerToken: { id: number; key: string; apiKey: string };
  let mock: MockUpstream;
  let upperSeed: RelaySeed;
  let upperRoot: Session;
  let aliceToken: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let gatewayChannel: number;
  let stopUpper: () => Promise<void>;

  beforeAll(async () => {
    mock = await new MockUpstream().start();
    lower = await startTestApp();
    lowerSeed = new RelaySeed(lower);
    await setupRoot(lower);
    const bob = await registerUser(lower, 'bob');
    for (const [key, value] of Object.entries(PRICES)) await lowerSeed.setOption(key, JSON.stringify(value));
    await lowerSeed.setOption('DisplayTokenStatEnabled', true);
    await lowerSeed.setOption('DisplayInCurrencyEnabled', true);
    await lowerSeed.setUserQuota(bob.id, 10_000_000);
    lowerToken = await lowerSeed.createToken(bob.id, { remain_quota: LOWER_TOKEN_QUOTA });
    await lowerSeed.createChannel({ name: 'lower-openai', base_url: mock.url, key: LOWER_CHANNEL_KEY, models: 'relayed-chat,relayed-embed' });

    ({ seed: upperSeed, root: upperRoot, token: aliceToken, openai, stop: stopUpper } = await startNativeRelayTestbed(PRICES));
    gatewayChannel = await upperSeed.createChannel({ name: 'lower-gateway', type: CHANNEL_TYPE.GATEWAY, base_url: lower.baseUrl, key: lowerToken.apiKey, models: 'relayed-chat,relayed-embed' });
  });
  afterAll(async () => {
    await stopUpper();
    await lower.stop();
    await mock.stop();
  });
  beforeEach(async () => {
    mock.reset();
    mock.handler = openAIReply;
    await upperSeed.flush();
    await lowerSeed.flush();
  });

  /** The last log row of each gateway's caller: alice's in the upper one, bob's token's in the lower one. */
  async function lastLogs() {
    await upperSeed.flush();
    await lowerSeed.flush();
    return {
      upper: (await upperSeed.consumeLogs({ tokenId: aliceToken.id })).slice(-1)[0],
      lower: (await lowerSeed.consumeLogs({ tokenId: lowerToken.id })).slice(-1)[0],
    };
  }

  it('relays a chat through the lower gateway, each gateway billing its caller exactly', async () => {
    const answer = await openai.chat.completions.create({ model: 'relayed-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(answer.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0].body).toEqual({ model: 'relayed-chat', messages: [{ role: 'user', content: 'hi' }] });
    const { upper, lower: lowerLog } = await lastLogs();
    expect(upper).toMatchObject({ model_name: 'relayed-chat', quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
    expect(lowerLog).toMatchObject({ model_name: 'relayed-chat', quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
    expect(JSON.stringify(upper)).not.toContain(lowerToken.key);
  });

  it('streams through it: the usage the upper gateway asks for reaches it from the lower one, and only a client who asked sees it', async () => {
    const stream = await openai.chat.completions.create({ model: 'relayed-chat', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    const usages = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect({ text, usages }).toEqual({ text: MOCK_REPLY_TEXT, usages: [] });
    expect(mock.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const { upper, lower: lowerLog } = await lastLogs();
    expect(upper).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
    expect(lowerLog).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });

    const asked = await openai.chat.completions.create({ model: 'relayed-chat', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    const seen = [];
    for await (const chunk of asked) if (chunk.usage) seen.push(chunk.usage);
    expect(seen).toEqual([expect.objectContaining({ prompt_tokens: 12, completion_tokens: 7 })]);
  });

  it('embeds through it', async () => {
    const result = await openai.embeddings.create({ model: 'relayed-embed', input: 'one', encoding_format: 'float' });
    expect(result.data[0].embedding).toEqual([0.1, 0.2, 0.3]);
    expect(mock.requests[0].path).toBe('/v1/embeddings');
    const { upper, lower: lowerLog } = await lastLogs();
    expect(upper).toMatchObject({ model_name: 'relayed-embed', quota: EMBED_QUOTA, prompt_tokens: 8 });
    expect(lowerLog).toMatchObject({ model_name: 'relayed-embed', quota: EMBED_QUOTA, prompt_tokens: 8 });
  });

  it("reads the lower gateway's billing answers as the channel's balance: what is left on the token, in dollars", async () => {
    await lowerSeed.flush();
    const { remain_quota: remaining, used_quota: used } = await lowerSeed.tokenQuota(lowerToken.id);
    expect(remaining + used).toBe(LOWER_TOKEN_QUOTA);
    const billed = (await lowerSeed.consumeLogs({ tokenId: lowerToken.id })).reduce((sum, log) => sum + log.quota, 0);
    expect(used).toBe(billed);

    const answer = await upperRoot.get(`/api/channel/update_balance/${gatewayChannel}`).expect(200);
    expect(answer.body).toMatchObject({ success: true, balance: remaining / 500_000 });
    expect((await upperSeed.channel(gatewayChannel)).status).toBe(1);
  });
});
