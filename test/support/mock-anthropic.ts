import type { MockReply, ReceivedRequest } from './mock-upstream';

/** What the mock Claude reports for every answer: cache reads and writes included. */
export const CLAUDE_USAGE = { input_tokens: 100, output_tokens: 40, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500 };
export const CLAUDE_REPLY_TEXT = 'Hello from mock Claude!';

/** What the mock's /v1/messages/count_tokens answers for a body. */
export function mockClaudeTokenCount(body: Record<string, unknown>): number {
  return 1000 + Math.ceil(JSON.stringify(body.messages).length / 4);
}

function sse(events: Array<Record<string, unknown>>): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/**
 * Anthropic's Messages API on the mock upstream: a JSON message, or its event stream when
 * `stream` is set; a tool_use block when the request forces a tool (tool_choice any/tool).
 * Refuses what Anthropic refuses: no x-api-key, no anthropic-version, no max_tokens.
 */
/** Claude's rule for thinking in a tool loop: with thinking on, the assistant turn a tool result answers must start with its thinking block. */
function thinkingTurnRefused(body: Record<string, unknown>): boolean {
  const thinking = (body.thinking as { type?: string } | undefined)?.type;
  if (thinking !== 'enabled' && thinking !== 'adaptive') return false;
  const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content) || !(last.content as Array<{ type?: string }>).some((block) => block.type === 'tool_result')) return false;
  const assistant = messages.slice(0, -1).reverse().find((message) => message.role === 'assistant');
  const first = Array.isArray(assistant?.content) ? (assistant.content as Array<{ type?: string }>)[0]?.type : undefined;
  return first !== 'thinking' && first !== 'redacted_thinking';
}

export function anthropicReply(request: ReceivedRequest): MockReply {
  if (request.path === '/v1/models' && request.headers['x-api-key']) return { status: 200, json: { data: [{ id: 'claude-sonnet-4-5', type: 'model' }, { id: 'claude-opus-4-1', type: 'model' }], has_more: false } };
  if (!request.path.startsWith('/v1/messages')) return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: 'Not found' } } };
  if (!request.headers['x-api-key']) return { status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } } };
  if (!request.headers['anthropic-version']) return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version header is required' } } };
  const body = request.body;
  // Counting needs no max_tokens; the mock's count is the characters of the JSON messages over four, so a test can tell it from a local count.
  if (request.path === '/v1/messages/count_tokens') return { status: 200, json: { input_tokens: mockClaudeTokenCount(body) } };
  if (typeof body.max_tokens !== 'number') return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } } };
  if (thinkingTurnRefused(body)) {
    const message = 'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.';
    return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } };
  }
  const model = String(body.model);
  const choice = body.tool_choice as { type?: string } | undefined;
  const tool = (choice?.type === 'any' || choice?.type === 'tool') && Array.isArray(body.tools) ? (body.tools as Array<{ name: string }>)[0] : undefined;

  if (body.stream !== true) {
    const content = tool ? [{ type: 'tool_use', id: 'toolu_mock', name: tool.name, input: { city: 'Paris' } }] : [{ type: 'text', text: CLAUDE_REPLY_TEXT }];
    return { status: 200, json: { id: 'msg_mock', type: 'message', role: 'assistant', model, content, stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: CLAUDE_USAGE } };
  }
  const { output_tokens: outputTokens, ...inputUsage } = CLAUDE_USAGE;
  const events: Array<Record<string, unknown>> = [
    { type: 'message_start', message: { id: 'msg_mock', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...inputUsage, output_tokens: 1 } } },
  ];
  if (tool) {
    events.push(
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_mock', name: tool.name, input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
    );
  } else {
    events.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'ping' });
    for (const word of CLAUDE_REPLY_TEXT.split(/(?<= )/)) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } });
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } },
    { type: 'message_stop' },
  );
  return { status: 200, text: sse(events), contentType: 'text/event-stream' };
}
