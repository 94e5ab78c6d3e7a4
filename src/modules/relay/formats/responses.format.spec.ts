import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../wire/wire-format';
import { emptyUsage } from '../wire/usage';
import { RelayError } from '../relay-error';
import { RESPONSES_FORMAT, responsesToolOptions } from './responses.format';

/** Golden fixtures of the Responses ⇄ Chat Completions conversion, request, answer and stream, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = <T = JsonObject>(name: string): T => JSON.parse(fixture(name)) as T;
const request = json('responses.request.json');
const options = { model: 'gpt-5-codex', includeUsage: false, ...responsesToolOptions(request) };

function refusal(body: JsonObject): RelayError {
  try {
    RESPONSES_FORMAT.toOpenAIRequest(body);
  } catch (error) {
    return error as RelayError;
  }
  throw new Error('expected a refusal');
}

describe('Responses as the client format, converted through Chat Completions', () => {
  it('converts Codex’s items: instructions and developer as system, images, assistant text with its tool calls, tool outputs; reasoning dropped', () => {
    expect(RESPONSES_FORMAT.toOpenAIRequest(request)).toEqual(json('chat-from-responses.request.json'));
  });

  it('takes a plain string input and a message without a type', () => {
    expect(RESPONSES_FORMAT.toOpenAIRequest({ model: 'm', input: 'Hi' })).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    expect(RESPONSES_FORMAT.toOpenAIRequest({ model: 'm', input: [{ role: 'user', content: 'Hi' }], tool_choice: 'required' })).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    expect(RESPONSES_FORMAT.toOpenAIRequest({ model: 'm', input: 'Hi', text: { format: { type: 'json_object' } }, tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'f' } })).toMatchObject({
      response_format: { type: 'json_object' },
      tool_choice: { type: 'function', function: { name: 'f' } },
    });
  });

  it('refuses what needs the upstream’s stored state, and built-in tools, with a 400 naming them', () => {
    const stateful = refusal({ model: 'm', input: 'Hi', previous_response_id: 'resp_1' });
    expect(stateful.status).toBe(400);
    expect(stateful.message).toContain('previous_response_id');
    expect(stateful.message).toContain('keeps no response state');
    expect(refusal({ model: 'm', input: 'Hi', tools: [{ type: 'web_search' }] }).message).toContain('web_search');
    expect(refusal({ model: 'm', input: 'Hi', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'file_search' } }).message).toContain('file_search');
    expect(refusal({ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }).message).toContain('item_reference');
    expect(refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }).message).toContain('file_id');
  });

  it('converts a chat completion into a Response: reasoning, message, function and custom tool calls, usage', () => {
    expect(RESPONSES_FORMAT.fromOpenAIResponse(json('chat.response.json'), options)).toEqual(json('responses-from-chat.response.json'));
  });

  it('flattens namespaced tools (Codex’s agent tools) as namespace__name, and names the namespace again in the answer', () => {
    const body = {
      model: 'm',
      input: [{ type: 'function_call', call_id: 'c1', namespace: 'agents', name: 'spawn', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }],
      tools: [{ type: 'namespace', name: 'agents', description: 'Agents', tools: [{ type: 'function', name: 'spawn', parameters: { type: 'object', properties: {} } }] }],
    };
    const chat = RESPONSES_FORMAT.toOpenAIRequest(body);
    expect(chat.tools).toEqual([{ type: 'function', function: { name: 'agents__spawn', parameters: { type: 'object', properties: {} } } }]);
    expect((chat.messages as JsonObject[])[0]).toMatchObject({ tool_calls: [{ id: 'c1', function: { name: 'agents__spawn' } }] });
    const answer = RESPONSES_FORMAT.fromOpenAIResponse({ id: 'c', choices: [{ message: { tool_calls: [{ id: 'c2', type: 'function', function: { name: 'agents__spawn', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] }, { model: 'm', includeUsage: false, ...responsesToolOptions(body) });
    expect((answer.output as JsonObject[])[0]).toMatchObject({ type: 'function_call', call_id: 'c2', namespace: 'agents', name: 'spawn' });
  });

  it('says a cut-off answer is incomplete', () => {
    const answer = RESPONSES_FORMAT.fromOpenAIResponse({ id: 'c', choices: [{ message: { content: 'Hel' }, finish_reason: 'length' }] }, options);
    expect(answer).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('streams chunks as Responses’ typed events, in order, with the usage in response.completed', () => {
    const encoder = RESPONSES_FORMAT.createStreamEncoder(options);
    let out = '';
    for (const chunk of json<JsonObject[]>('chat.stream-chunks.json')) out += encoder.encode(chunk);
    out += encoder.end({ ...emptyUsage(), promptTokens: 30, completionTokens: 12, cachedTokens: 8, reasoningTokens: 3 });
    expect(out).toBe(fixture('responses-from-chat.stream.sse'));
  });

  it('keeps one function call item for chunks that repeat the call’s id without an index', () => {
    const encoder = RESPONSES_FORMAT.createStreamEncoder(options);
    let out = '';
    for (const args of ['{"a":', '1}']) out += encoder.encode({ id: 'c', choices: [{ delta: { tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'shell', arguments: args } }] } }] });
    out += encoder.end(undefined);
    expect(out.match(/event: response.output_item.added/g)).toHaveLength(1);
    expect(out).toContain('"arguments":"{\\"a\\":1}"');
  });

  it('ends a stream that fails mid-way with response.failed, and nothing after it', () => {
    const encoder = RESPONSES_FORMAT.createStreamEncoder(options);
    const first = encoder.encode({ id: 'c', choices: [{ delta: { content: 'Hi' } }] });
    expect(first).toContain('response.output_text.delta');
    const failed = encoder.encode({ error: { message: 'Overloaded', type: 'overloaded_error', code: null } });
    expect(failed).toContain('event: response.failed');
    expect(JSON.parse(failed.split('data: ')[1])).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'overloaded_error', message: 'Overloaded' } } });
    expect(encoder.end(undefined)).toBe('');
  });
});
