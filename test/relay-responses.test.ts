import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { anthropicReply, CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { GEMINI_REPLY_TEXT, geminiReply } from './support/mock-gemini';
import { MOCK_REPLY_TEXT, MockUpstream, type MockReply, type ReceivedRequest } from './support/mock-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';

/**
 * Quotas at QuotaPerUnit 500000, where a ratio r costs r quota per token:
 * - chat-only channel (the mock reports 12 prompt, 7 completion): 12 + 7 × 2 = 26;
 * - Responses channel (20 input, 10 output): 20 + 10 × 2 = 40;
 * - Claude (100 input, 2000 cache read, 500 cache write, 40 output): 100 + 2000 × 0.1 + 500 × 1.25 + 40 × 5 = 1125;
 * - Gemini (30 prompt of which 20 cached, 15 output with thoughts): 10 + 20 × 0.25 + 15 × 2 = 45.
 */
const CHAT_QUOTA = 26;
const RESPONSES_QUOTA = 40;
const CLAUDE_QUOTA = 1125;
const GEMINI_QUOTA = 45;
const PRICES = {
  ModelRatio: { 'gpt-mixed': 1, 'o1-pro': 1, 'gpt-resp-only': 1, 'gpt-chat': 1, 'gpt-resp': 1, 'gpt-via-chat': 1, 'gpt-test': 1, 'claude-test': 1, 'gemini-test': 1 },
  CompletionRatio: { 'o1-pro': 2, 'gpt-resp-only': 2, 'gpt-chat': 2, 'gpt-resp': 2, 'gpt-via-chat': 2, 'claude-test': 5, 'gemini-test': 2 },
  CacheRatio: { 'claude-test': 0.1, 'gemini-test': 0.25 },
  CreateCacheRatio: { 'claude-test': 1.25 },
};
const SHELL_TOOL = { type: 'function' as const, name: 'shell', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } };
const RESPONSES_USAGE = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 };

/** An upstream that serves OpenAI's Responses API itself, as OpenAI does: a Response, or its typed events. */
function responsesReply(request: ReceivedRequest): MockReply | undefined {
  if (!request.path.startsWith('/v1/responses')) return undefined;
  const response = { id: 'resp_upstream', object: 'response', created_at: 1700000000, status: 'completed', model: request.body.model, output: [{ type: 'message', id: 'msg_up', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'From the Responses upstream.', annotations: [] }] }], usage: RESPONSES_USAGE };
  if (request.body.stream !== true) return { status: 200, json: response };
  const events = [
    { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...response.output[0], status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', sequence_number: 2, item_id: 'msg_up', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
    { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_up', output_index: 0, content_index: 0, delta: 'From the Responses upstream.' },
    { type: 'response.output_text.done', sequence_number: 4, item_id: 'msg_up', output_index: 0, content_index: 0, text: 'From the Responses upstream.' },
    { type: 'response.output_item.done', sequence_number: 5, output_index: 0, item: response.output[0] },
    { type: 'response.completed', sequence_number: 6, response },
  ];
  return { sse: events.map((event) => JSON.stringify(event)) };
}

/** A chat upstream that asks for the shell tool until the conversation carries its result, then answers with it. */
function toolLoopReply(request: ReceivedRequest): MockReply | undefined {
  if (!request.path.endsWith('/chat/completions') || !Array.isArray(request.body.tools)) return undefined;
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const result = messages.find((message) => message.role === 'tool');
  const base = { id: 'chatcmpl-tool', object: 'chat.completion.chunk', created: 1700000000, model: request.body.model };
  const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
  const call = { index: 0, id: 'call_shell', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } };
  if (request.body.stream !== true) {
    const message = result ? { role: 'assistant', content: `The files: ${String(result.content)}` } : { role: 'assistant', content: null, tool_calls: [call] };
    return { status: 200, json: { id: 'chatcmpl-tool', object: 'chat.completion', created: 1700000000, model: request.body.model, choices: [{ index: 0, message, finish_reason: result ? 'stop' : 'tool_calls' }], usage } };
  }
  const chunks = result
    ? [{ content: 'The files: ' }, { content: String(result.content) }]
    : [{ tool_calls: [{ ...call, function: { name: 'shell', arguments: '' } }] }, { tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] }, { tool_calls: [{ index: 0, function: { arguments: '["ls"]}' } }] }];
  const events = chunks.map((delta) => JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
  events.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: result ? 'stop' : 'tool_calls' }] }), JSON.stringify({ ...base, choices: [], usage }), '[DONE]');
  return { sse: events };
}

describe('relay: the Responses API (POST /v1/responses) on every channel format', () => {
  let bed: NativeRelayTestbed;
  let openai: OpenAI;
  let responsesUpstream: MockUpstream;
  let chatOnly: MockUpstream;
  let claude: MockUpstream;
  let gemini: MockUpstream;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    openai = bed.openai;
    [responsesUpstream, chatOnly, claude, gemini] = await Promise.all([new MockUpstream().start(), new MockUpstream().start(), new MockUpstream().start(), new MockUpstream().start()]);
    await bed.seed.createChannel({ name: 'responses', type: 1, base_url: responsesUpstream.url, models: 'gpt-resp,o1-pro' });
    await bed.seed.createChannel({ name: 'responses-only', type: 43, base_url: responsesUpstream.url, models: 'gpt-resp-only', setting: JSON.stringify({ responses_only: true }) });
    // DeepSeek's row offers chat only; an OpenAI row whose channel says its upstream serves chat only converts the same way.
    await bed.seed.createChannel({ name: 'chat-only', type: 43, base_url: chatOnly.url, models: 'gpt-chat' });
    await bed.seed.createChannel({ name: 'via-chat', type: 1, base_url: chatOnly.url, models: 'gpt-via-chat', setting: JSON.stringify({ responses_via_chat: true }) });
    // previous_response_id goes to the channel that can keep it, though a converting one ranks first.
    await bed.seed.createChannel({ name: 'resp-low', type: 1, base_url: responsesUpstream.url, models: 'gpt-mixed', priority: 0 });
    await bed.seed.createChannel({ name: 'chat-high', type: 43, base_url: chatOnly.url, models: 'gpt-mixed', priority: 10 });
    await bed.seed.createChannel({ name: 'claude', type: 14, base_url: claude.url, models: 'claude-test', key: 'sk-ant-upstream' });
    await bed.seed.createChannel({ name: 'gemini', type: 24, base_url: gemini.url, models: 'gemini-test', key: 'AIza-upstream' });
  });
  afterAll(async () => {
    await bed.stop();
    await Promise.all([responsesUpstream.stop(), chatOnly.stop(), claude.stop(), gemini.stop()]);
  });
  beforeEach(() => {
    for (const mock of [responsesUpstream, chatOnly, claude, gemini]) mock.reset();
    responsesUpstream.handler = responsesReply;
    chatOnly.handler = toolLoopReply;
    claude.handler = anthropicReply;
    gemini.handler = geminiReply;
  });

  describe('a channel whose upstream serves Responses: passed through', () => {
    it('relays responses.create as it came, previous_response_id included, and bills the upstream usage', async () => {
      const answer = await openai.responses.create({ model: 'gpt-resp', input: 'Hi', previous_response_id: 'resp_earlier', store: true });
      expect(answer.output_text).toBe('From the Responses upstream.');
      expect(responsesUpstream.requests[0].path).toBe('/v1/responses');
      expect(responsesUpstream.requests[0].body).toMatchObject({ model: 'gpt-resp', input: 'Hi', previous_response_id: 'resp_earlier' });
      expect(await bed.lastLog()).toMatchObject({ quota: RESPONSES_QUOTA, prompt_tokens: 20, completion_tokens: 10, channel_name: 'responses' });
    });

    it('sends previous_response_id past a higher-priority channel that converts, to one whose upstream keeps responses', async () => {
      const answer = await openai.responses.create({ model: 'gpt-mixed', input: 'And then?', previous_response_id: 'resp_earlier' });
      expect(answer.output_text).toBe('From the Responses upstream.');
      expect(chatOnly.requests).toHaveLength(0);
      expect(responsesUpstream.requests[0].body).toMatchObject({ previous_response_id: 'resp_earlier' });
      chatOnly.handler = undefined;
      await openai.responses.create({ model: 'gpt-mixed', input: 'Hi' });
      expect(chatOnly.requests).toHaveLength(1);
    });

    it('streams the upstream’s own events (responses.stream)', async () => {
      const stream = openai.responses.stream({ model: 'gpt-resp', input: 'Hi' });
      const final = await stream.finalResponse();
      expect(final.output_text).toBe('From the Responses upstream.');
      expect(await bed.lastLog()).toMatchObject({ quota: RESPONSES_QUOTA });
    });
  });

  describe('a Chat-only OpenAI-format channel: converted', () => {
    it('answers responses.create through /chat/completions with instructions as the system message, billed exactly', async () => {
      chatOnly.handler = undefined;
      const answer = await openai.responses.create({ model: 'gpt-chat', instructions: 'Be brief.', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }], max_output_tokens: 50, store: false });
      expect(answer.object).toBe('response');
      expect(answer.output_text).toBe(MOCK_REPLY_TEXT);
      expect(answer.usage).toMatchObject({ input_tokens: 12, output_tokens: 7, total_tokens: 19 });
      expect(chatOnly.requests[0].path).toBe('/v1/chat/completions');
      expect(chatOnly.requests[0].body).toEqual({ model: 'gpt-chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], max_tokens: 50 });
      const log = await bed.lastLog();
      expect(log).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 12, completion_tokens: 7 });
      expect(log.other).toMatchObject({ request_path: '/responses' });
    });

    it('runs a function-call round trip, streamed, with Responses’ typed events in order', async () => {
      const stream = openai.responses.stream({ model: 'gpt-chat', input: 'List the files', tools: [SHELL_TOOL] });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      const first = await stream.finalResponse();
      expect(types).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ]);
      const call = first.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', call_id: 'call_shell', name: 'shell', arguments: '{"command":["ls"]}' });
      expect(first.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
      expect(await bed.lastLog()).toMatchObject({ quota: CHAT_QUOTA });

      const input: ResponseInputItem[] = [{ role: 'user', content: 'List the files' }, ...(first.output as ResponseInputItem[]), { type: 'function_call_output', call_id: 'call_shell', output: 'a.txt b.txt' }];
      const second = await openai.responses.stream({ model: 'gpt-chat', input, tools: [SHELL_TOOL] }).finalResponse();
      expect(second.output_text).toBe('The files: a.txt b.txt');
      const sent = chatOnly.requests[1].body.messages;
      expect(sent).toEqual([
        { role: 'user', content: 'List the files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_shell', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
        { role: 'tool', tool_call_id: 'call_shell', content: 'a.txt b.txt' },
      ]);
      expect(await bed.lastLog()).toMatchObject({ quota: CHAT_QUOTA });
    });

    it('converts on an OpenAI row whose channel says its upstream serves chat only (setting.responses_via_chat)', async () => {
      chatOnly.handler = undefined;
      const answer = await openai.responses.create({ model: 'gpt-via-chat', input: 'Hi' });
      expect(answer.output_text).toBe(MOCK_REPLY_TEXT);
      expect(chatOnly.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
    });

    it('refuses previous_response_id and built-in tools with a 400 in the Responses error shape, charging nothing', async () => {
      await bed.seed.flush();
      const before = await bed.seed.tokenQuota(bed.token.id);
      const stateful = await openai.responses.create({ model: 'gpt-chat', input: 'Hi', previous_response_id: 'resp_1' }).catch((error: unknown) => error);
      expect(stateful).toBeInstanceOf(OpenAI.BadRequestError);
      expect((stateful as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('previous_response_id');
      expect((stateful as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: null });
      const builtIn = await openai.responses.create({ model: 'gpt-chat', input: 'Hi', tools: [{ type: 'web_search' }] }).catch((error: unknown) => error);
      expect((builtIn as Error).message).toContain('web_search');
      expect(chatOnly.requests).toHaveLength(0);
      await bed.seed.flush();
      expect(await bed.seed.tokenQuota(bed.token.id)).toEqual(before);
    });
  });

  describe('a Claude channel: converted through Messages', () => {
    it('answers responses.create, billed with the cache reads and writes', async () => {
      const answer = await openai.responses.create({ model: 'claude-test', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 100 });
      expect(answer.output_text).toBe(CLAUDE_REPLY_TEXT);
      expect(answer.usage).toMatchObject({ input_tokens: 2600, input_tokens_details: { cached_tokens: 2000 }, output_tokens: 40 });
      expect(claude.requests[0].body).toMatchObject({ system: 'Be brief.', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
      expect(await bed.lastLog()).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
    });

    it('streams a forced tool call as function_call events, then takes its output back', async () => {
      const tools = [{ ...SHELL_TOOL, name: 'get_weather' }];
      const first = await openai.responses.stream({ model: 'claude-test', input: 'Weather?', tools, tool_choice: 'required', max_output_tokens: 100 }).finalResponse();
      const call = first.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ call_id: 'toolu_mock', name: 'get_weather', arguments: '{"city": "Paris"}' });
      expect(await bed.lastLog()).toMatchObject({ quota: CLAUDE_QUOTA });

      const input: ResponseInputItem[] = [{ role: 'user', content: 'Weather?' }, ...(first.output as ResponseInputItem[]), { type: 'function_call_output', call_id: 'toolu_mock', output: 'Sunny' }];
      const second = await openai.responses.stream({ model: 'claude-test', input, tools, max_output_tokens: 100 }).finalResponse();
      expect(second.output_text).toBe(CLAUDE_REPLY_TEXT);
      expect(claude.requests[1].body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock', content: 'Sunny' }] },
      ]);
    });
  });

  describe('a Gemini channel: converted through generateContent', () => {
    it('answers responses.create with the thoughts as a reasoning summary', async () => {
      const answer = await openai.responses.create({ model: 'gemini-test', input: 'Hi' });
      expect(answer.output_text).toBe(GEMINI_REPLY_TEXT);
      expect(answer.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Let me think.' }] });
      expect(answer.usage).toMatchObject({ input_tokens: 30, output_tokens: 15, input_tokens_details: { cached_tokens: 20 }, output_tokens_details: { reasoning_tokens: 5 } });
      expect(await bed.lastLog()).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });
    });

    it('streams reasoning summary and text deltas (responses.stream)', async () => {
      const stream = openai.responses.stream({ model: 'gemini-test', input: 'Hi' });
      const types = new Set<string>();
      let text = '';
      stream.on('response.output_text.delta', (event) => (text += event.delta));
      for await (const event of stream) types.add(event.type);
      const final = await stream.finalResponse();
      expect(text).toBe(GEMINI_REPLY_TEXT);
      expect(final.output_text).toBe(GEMINI_REPLY_TEXT);
      expect([...types]).toEqual(expect.arrayContaining(['response.reasoning_summary_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.completed']));
      expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 15 });
      expect(await bed.lastLog()).toMatchObject({ quota: GEMINI_QUOTA });
    });
  });

  describe('Chat Completions clients on models that answer only on Responses: converted the other way', () => {
    it('serves chat.completions.create for o1-pro on an OpenAI channel through /responses, billed exactly', async () => {
      const answer = await openai.chat.completions.create({ model: 'o1-pro', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], max_completion_tokens: 64 });
      expect(answer.choices[0].message.content).toBe('From the Responses upstream.');
      expect(answer.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10 });
      expect(responsesUpstream.requests[0].path).toBe('/v1/responses');
      expect(responsesUpstream.requests[0].body).toEqual({ model: 'o1-pro', instructions: 'Be brief.', input: [{ type: 'message', role: 'user', content: 'Hi' }], store: false, max_output_tokens: 64 });
      expect(await bed.lastLog()).toMatchObject({ quota: RESPONSES_QUOTA, prompt_tokens: 20, completion_tokens: 10 });
    });

    it('streams chat chunks from the Responses events of a channel marked responses_only, with the usage chunk asked for', async () => {
      const stream = await openai.chat.completions.create({ model: 'gpt-resp-only', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('From the Responses upstream.');
      expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10 });
      expect(responsesUpstream.requests[0].body).toMatchObject({ model: 'gpt-resp-only', stream: true, store: false });
      expect(await bed.lastLog()).toMatchObject({ quota: RESPONSES_QUOTA, channel_name: 'responses-only' });
    });
  });
});
