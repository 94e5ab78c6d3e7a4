import Anthropic from '@anthropic-ai/sdk';
import { anthropicReply, mockClaudeTokenCount } from './support/mock-anthropic';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

const PRICES = { ModelRatio: { 'claude-test': 1, 'gpt-test': 1 } };
const MESSAGES: Anthropic.MessageParam[] = [{ role: 'user', content: 'Hello, world' }];

describe('relay: POST /v1/messages/count_tokens (Claude token counting, free)', () => {
  let app: TestApp;
  let claude: MockUpstream;
  let openaiUpstream: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number; key: string; apiKey: string };
  let alice: { id: number };
  let anthropic: Anthropic;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, native: claude, openaiUpstream, seed, token, alice, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'claude', type: 14, base_url: claude.url, models: 'claude-test', key: 'sk-ant-upstream-secret', model_mapping: '{"claude-test":"claude-upstream"}' });
    anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
  });
  afterAll(() => stop());
  beforeEach(() => {
    claude.reset();
    claude.handler = anthropicReply;
    openaiUpstream.reset();
  });

  /** The caller's balances and log rows, to show a count costs nothing and logs nothing. */
  async function ledger() {
    await seed.flush();
    return { user: await seed.userQuota(alice.id), token: await seed.tokenQuota(token.id), logs: (await seed.consumeLogs({ tokenId: token.id })).length };
  }

  it("asks the Anthropic channel serving the model, with the channel's key and upstream model, and bills nothing", async () => {
    const before = await ledger();
    const counted = await anthropic.messages.countTokens({ model: 'claude-test', system: 'Be brief.', messages: MESSAGES });
    expect(counted).toEqual({ input_tokens: mockClaudeTokenCount({ messages: MESSAGES }) });

    expect(claude.requests).toHaveLength(1);
    const sent = claude.requests[0];
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-secret');
    // The SDK's own version passes through, as on /v1/messages.
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'claude-upstream', system: 'Be brief.', messages: MESSAGES });
    expect(await ledger()).toEqual(before);
  });

  it('takes the key as a Bearer token too', async () => {
    const response = await fetch(`${app.baseUrl}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.apiKey}` },
      body: JSON.stringify({ model: 'claude-test', messages: MESSAGES }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ input_tokens: mockClaudeTokenCount({ messages: MESSAGES }) });
    expect(claude.requests[0].headers['anthropic-version']).toBe('2023-06-01');
  });

  it("counts locally, with the gateway's tokenizer, a model that only OpenAI channels serve", async () => {
    const before = await ledger();
    // o200k: "user" is 1 token and "Hello, world" 3; OpenAI's chat framing adds 3 per message and 3 for the reply.
    expect(await anthropic.messages.countTokens({ model: 'gpt-test', messages: MESSAGES })).toEqual({ input_tokens: 10 });
    expect(claude.requests).toHaveLength(0);
    expect(openaiUpstream.requests).toHaveLength(0);
    expect(await ledger()).toEqual(before);
  });

  it("counts a coding agent's tool loop locally for a model no Claude channel serves: tool_use inputs and tool_result contents included", async () => {
    const result = 'x '.repeat(500);
    const loop = (output: string) => [
      { role: 'user' as const, content: 'List the files.' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: [{ type: 'text' as const, text: output }] }] },
    ];
    const short = await anthropic.messages.countTokens({ model: 'gpt-test', messages: loop('a') });
    const long = await anthropic.messages.countTokens({ model: 'gpt-test', messages: loop(result) });
    // o200k: "x x … x " is "x", 499 × " x" and the trailing space (501 tokens), against "a"'s one.
    expect(long.input_tokens - short.input_tokens).toBe(500);
    expect(short.input_tokens).toBeGreaterThan(10);
    expect(openaiUpstream.requests).toHaveLength(0);
  });

  it('counts locally when the Anthropic channel fails', async () => {
    claude.handler = () => ({ status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    expect(await anthropic.messages.countTokens({ model: 'claude-test', messages: MESSAGES })).toEqual({ input_tokens: 10 });
    expect(claude.requests).toHaveLength(1);
  });

  it("answers errors in Claude's shape", async () => {
    const post = (headers: Record<string, string>, body: string) => fetch(`${app.baseUrl}/v1/messages/count_tokens`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const noKey = await post({}, JSON.stringify({ model: 'claude-test', messages: MESSAGES }));
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const noModel = await post({ 'x-api-key': token.apiKey }, JSON.stringify({ messages: MESSAGES }));
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('The request names no model') } });

    const notJson = await post({ 'x-api-key': token.apiKey }, '{"model":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    const get = await fetch(`${app.baseUrl}/v1/messages/count_tokens`, { headers: { 'x-api-key': token.apiKey } });
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ type: 'error' });

    await expect(anthropic.messages.countTokens({ model: 'claude-test', messages: 'hi' as unknown as Anthropic.MessageParam[] })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(anthropic.messages.countTokens({ model: 'no-such-model', messages: MESSAGES })).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect(claude.requests).toHaveLength(0);
  });
});
