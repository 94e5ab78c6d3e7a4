import { RelaySocketsService } from '../src/modules/relay/websocket/relay-sockets.service';
import { MOCK_REPLY_TEXT, MockUpstream, type MockReply, type ReceivedRequest } from './support/mock-upstream';
import { MockSocketUpstream, SOCKET_REPLY_TEXT } from './support/mock-socket-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';
import { SocketClient, socketUrl, type SocketEvent } from './support/socket-client';

/**
 * `/v1/responses` over WebSocket, as Codex uses it. Quotas at QuotaPerUnit 500000, where a
 * ratio r costs r quota per token (completion ratio 2):
 * - the Responses upstream, over its socket or over HTTP (20 input, 10 output): 20 + 10 × 2 = 40;
 * - the Chat-only channel, converted (12 prompt, 7 completion): 12 + 7 × 2 = 26.
 */
const RESPONSES_QUOTA = 40;
const CHAT_QUOTA = 26;
const MODELS = ['gpt-ws', 'gpt-ws-mapped', 'gpt-nows', 'gpt-via-chat'];
const PRICES = {
  ModelRatio: Object.fromEntries(MODELS.map((model) => [model, 1])),
  CompletionRatio: Object.fromEntries(MODELS.map((model) => [model, 2])),
};
const HTTP_REPLY_TEXT = 'From the Responses upstream over HTTP.';

/** A Responses upstream over HTTP (the one that refuses WebSocket upgrades): its typed events, 20 input and 10 output tokens. */
function httpResponsesReply(request: ReceivedRequest): MockReply | undefined {
  if (!request.path.startsWith('/v1/responses')) return undefined;
  const response = { id: 'resp_http', object: 'response', created_at: 1700000000, status: 'completed', model: request.body.model, output: [{ type: 'message', id: 'msg_http', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: HTTP_REPLY_TEXT, annotations: [] }] }], usage: { input_tokens: 20, output_tokens: 10, total_tokens: 30 } };
  const events = [
    { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_http', output_index: 0, content_index: 0, delta: HTTP_REPLY_TEXT },
    { type: 'response.completed', sequence_number: 2, response },
  ];
  return { sse: events.map((event) => JSON.stringify(event)) };
}

function userInput(text: string): object[] {
  return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }];
}

function deltas(events: SocketEvent[]): string {
  return events.filter((event) => event.type === 'response.output_text.delta').map((event) => String(event.delta)).join('');
}

describe('Responses over WebSocket (/v1/responses)', () => {
  let bed: NativeRelayTestbed;
  let socketUpstream: MockSocketUpstream;
  let refusing: MockSocketUpstream;
  let chatOnly: MockUpstream;
  let gatewayUrl: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    socketUpstream = await new MockSocketUpstream().start();
    refusing = await new MockSocketUpstream().start();
    refusing.refuseResponsesUpgrade = true;
    refusing.handler = httpResponsesReply;
    chatOnly = await new MockUpstream().start();
    await bed.seed.createChannel({ name: 'ws', type: 1, base_url: socketUpstream.url, models: 'gpt-ws,gpt-ws-mapped', model_mapping: JSON.stringify({ 'gpt-ws-mapped': 'gpt-upstream-name' }) });
    await bed.seed.createChannel({ name: 'no-ws', type: 1, base_url: refusing.url, models: 'gpt-nows' });
    await bed.seed.createChannel({ name: 'via-chat', type: 1, base_url: chatOnly.url, models: 'gpt-via-chat', setting: JSON.stringify({ responses_via_chat: true }) });
    gatewayUrl = socketUrl(bed.app.baseUrl, '/v1/responses');
    auth = { authorization: `Bearer ${bed.token.apiKey}` };
  });

  afterAll(async () => {
    await bed.stop();
    await socketUpstream.stop();
    await refusing.stop();
    await chatOnly.stop();
  });


  it('carries many responses on one socket through one upstream socket, each billed and logged', async () => {
    const before = await bed.consumeLogCount();
    const upgradesBefore = socketUpstream.upgrades.length;
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const first = await client.respond({ model: 'gpt-ws', input: userInput('hello'), store: false });
    const second = await client.respond({ model: 'gpt-ws-mapped', input: userInput('again'), store: false });
    await client.close();

    expect(first.map((event) => event.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_text.done', 'response.output_item.done', 'response.completed']);
    expect(deltas(first)).toBe(SOCKET_REPLY_TEXT);
    expect(second.at(-1)?.type).toBe('response.completed');
    // One upgrade for the session; the body went up as a response.create, without HTTP's stream, model mapped.
    expect(socketUpstream.upgrades.length - upgradesBefore).toBe(1);
    const sent = socketUpstream.frames.slice(-2);
    expect(sent.map((frame) => [frame.type, frame.model, frame.stream])).toEqual([
      ['response.create', 'gpt-ws', undefined],
      ['response.create', 'gpt-upstream-name', undefined],
    ]);
    expect(sent[0].input).toEqual(userInput('hello'));

    const logs = await bed.logsAfter(before, 2);
    expect(logs.map((log) => [log.model_name, log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      ['gpt-ws', RESPONSES_QUOTA, 20, 10],
      ['gpt-ws-mapped', RESPONSES_QUOTA, 20, 10],
    ]);
    expect(logs[0].other).toMatchObject({ ws: true, request_path: '/responses' });
    expect(logs[1].other).toMatchObject({ ws: true, is_model_mapped: true, upstream_model_name: 'gpt-upstream-name' });
  });

  it('answers over HTTP when the upstream refuses the upgrade, and does not try it again for every call', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const first = await client.respond({ model: 'gpt-nows', input: userInput('hello') });
    const second = await client.respond({ model: 'gpt-nows', input: userInput('again') });
    await client.close();

    expect(deltas(first)).toBe(HTTP_REPLY_TEXT);
    expect(second.at(-1)?.type).toBe('response.completed');
    expect(refusing.upgrades.filter((upgrade) => upgrade.path === '/v1/responses')).toHaveLength(1);
    const posted = refusing.requests.filter((request) => request.path === '/v1/responses');
    expect(posted).toHaveLength(2);
    expect(posted[0].body).toMatchObject({ model: 'gpt-nows', stream: true, input: userInput('hello') });
    expect(posted[0].body.type).toBeUndefined();

    const logs = await bed.logsAfter(before, 2);
    expect(logs.map((log) => log.quota)).toEqual([RESPONSES_QUOTA, RESPONSES_QUOTA]);
    expect(logs[0].other).toMatchObject({ ws: true });
  });

  it('converts for a Chat-only channel: the Chat stream comes back as Responses events over the socket', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const events = await client.respond({ model: 'gpt-via-chat', input: userInput('hello'), instructions: 'Be brief.' });
    await client.close();

    expect(events[0].type).toBe('response.created');
    expect(events.some((event) => event.type === 'response.output_item.added')).toBe(true);
    expect(deltas(events)).toBe(MOCK_REPLY_TEXT);
    const completed = events.at(-1) as { type: string; response: { usage: { input_tokens: number; output_tokens: number } } };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
    const chat = chatOnly.requests.at(-1)!;
    expect(chat.path).toBe('/v1/chat/completions');
    expect(chat.body).toMatchObject({ model: 'gpt-via-chat', stream: true, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user' }] });

    const [log] = await bed.logsAfter(before, 1);
    expect(log.quota).toBe(CHAT_QUOTA);
    expect(log.other).toMatchObject({ ws: true });
  });

  it('continues from previous_response_id with only the new input, on a channel that keeps no state', async () => {
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const first = await client.respond({ model: 'gpt-via-chat', input: userInput('first question'), store: false });
    const firstId = (first.at(-1) as { response: { id: string } }).response.id;
    const second = await client.respond({ model: 'gpt-via-chat', previous_response_id: firstId, input: userInput('second question'), store: false });
    // An id this session never answered passes as it came, and the converted channel refuses it.
    const unknown = await client.respond({ model: 'gpt-via-chat', previous_response_id: 'resp_elsewhere', input: userInput('third') });
    await client.close();

    expect(second.at(-1)?.type).toBe('response.completed');
    const messages = chatOnly.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages[0].content)).toContain('first question');
    expect(JSON.stringify(messages[1].content)).toContain(MOCK_REPLY_TEXT);
    expect(JSON.stringify(messages[2].content)).toContain('second question');
    expect(unknown).toEqual([expect.objectContaining({ type: 'error', status: 400 })]);
  });

  it('answers a warm-up (generate: false) itself, unbilled, and continues from it', async () => {
    const before = await bed.consumeLogCount();
    const chatsBefore = chatOnly.requests.length;
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const warmUp = await client.respond({ model: 'gpt-via-chat', generate: false, input: userInput('context first') });
    const warmUpId = (warmUp.at(-1) as { response: { id: string; output: unknown[] } }).response.id;
    expect(warmUp.map((event) => event.type)).toEqual(['response.created', 'response.completed']);
    const answer = await client.respond({ model: 'gpt-via-chat', previous_response_id: warmUpId, input: userInput('now the question') });
    await client.close();

    expect(answer.at(-1)?.type).toBe('response.completed');
    expect(chatOnly.requests.length - chatsBefore).toBe(1);
    const messages = chatOnly.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.map((message) => JSON.stringify(message.content))).toEqual([expect.stringContaining('context first'), expect.stringContaining('now the question')]);
    expect(await bed.logsAfter(before, 1)).toHaveLength(1);
  });

  it('refuses the upgrade without a valid token, as HTTP calls are refused', async () => {
    await expect(SocketClient.open(gatewayUrl)).rejects.toMatchObject({ status: 401 });
    await expect(SocketClient.open(gatewayUrl, { headers: { authorization: 'Bearer sk-not-a-token' } })).rejects.toMatchObject({ status: 401 });
    const refused = await SocketClient.open(gatewayUrl, { headers: { authorization: 'Bearer sk-not-a-token' } }).catch((error: { body: string }) => error);
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('checks the token on every response: a token disabled mid-session gets an error event, not an answer', async () => {
    const token = await bed.seed.createToken(bed.alice.id, { remain_quota: 1_000_000 });
    const client = await SocketClient.open(gatewayUrl, { headers: { authorization: `Bearer ${token.apiKey}` } });
    expect((await client.respond({ model: 'gpt-ws', input: userInput('hello') })).at(-1)?.type).toBe('response.completed');
    const disabled = await bed.alice.put('/api/token/?status_only=true', { id: token.id, status: 2 });
    expect(disabled.body.success).toBe(true);
    const refused = await client.respond({ model: 'gpt-ws', input: userInput('again') });
    await client.close();
    expect(refused).toEqual([expect.objectContaining({ type: 'error', status: 401, error: expect.objectContaining({ code: 'token_disabled' }) })]);
  });

  it('answers other messages with an error event and keeps the socket usable', async () => {
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    client.send({ type: 'session.update' });
    const [error] = await client.until((event) => event.type === 'error');
    expect(error).toMatchObject({ status: 400, error: { type: 'invalid_request_error' } });
    expect((await client.respond({ model: 'gpt-ws', input: userInput('hello') })).at(-1)?.type).toBe('response.completed');
    await client.close();
  });

  it('bills what was delivered when the upstream socket drops mid-response, and tells the client', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    const events = await client.respond({ model: 'gpt-ws', input: userInput('DROP now') });
    await client.close();

    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'error']);
    expect(events.at(-1)).toMatchObject({ status: 502 });
    const [log] = await bed.logsAfter(before, 1);
    // No usage came: the prompt and the delivered text are counted, as for an HTTP stream cut off.
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Number(log.prompt_tokens) + Number(log.completion_tokens) * 2);
  });

  it('bills what was delivered when the client leaves mid-response', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(gatewayUrl, { headers: auth });
    client.send({ type: 'response.create', model: 'gpt-ws', input: userInput('HANG here') });
    await client.until((event) => event.type === 'response.output_text.delta');
    await client.close();

    const [log] = await bed.logsAfter(before, 1);
    expect(log.other).toMatchObject({ ws: true, client_disconnected: true });
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Number(log.prompt_tokens) + Number(log.completion_tokens) * 2);
  });
});

describe('Responses sockets when the gateway shuts down', () => {
  it('closes idle sockets as a server going away (1001) and refuses new ones', async () => {
    const bed = await startNativeRelayTestbed(PRICES);
    const upstream = await new MockSocketUpstream().start();
    try {
      await bed.seed.createChannel({ name: 'ws', type: 1, base_url: upstream.url, models: 'gpt-ws' });
      const url = socketUrl(bed.app.baseUrl, '/v1/responses');
      const headers = { authorization: `Bearer ${bed.token.apiKey}` };
      const client = await SocketClient.open(url, { headers });
      expect((await client.respond({ model: 'gpt-ws', input: userInput('hello') })).at(-1)?.type).toBe('response.completed');
      const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
      bed.app.app.get(RelaySocketsService).beginShutdown();
      expect(await closed).toBe(1001);
      await expect(SocketClient.open(url, { headers })).rejects.toMatchObject({ status: 503 });
      expect(await bed.logsAfter(0, 1)).toHaveLength(1);
    } finally {
      await bed.stop();
      await upstream.stop();
    }
  });
});
