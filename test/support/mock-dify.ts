import type { MockHandler, ReceivedRequest } from './mock-upstream';

export const DIFY_REPLY_TEXT = 'Hello from mock Dify!';
/** What the mock Dify reports in metadata.usage (prices left out). */
export const DIFY_USAGE = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60, currency: 'USD', latency: 0.5 };

/**
 * A Dify chat app's chat-messages API on the mock upstream, keyed by the app's bearer key (a
 * wrong one: Dify's 401 `unauthorized`). Blocking answers are one `message` event; streams
 * are Dify's events (a ping, workflow and agent noise, messages, message_end with the usage).
 */
export function difyReply(key: string): MockHandler {
  return (request: ReceivedRequest) => {
    if (request.headers.authorization !== `Bearer ${key}`) return { status: 401, json: { code: 'unauthorized', message: 'Access token is invalid', status: 401 } };
    if (request.path !== '/v1/chat-messages') return { status: 404, json: { code: 'not_found', message: `mock has no ${request.path}`, status: 404 } };
    const body = request.body;
    if (typeof body.query !== 'string' || typeof body.user !== 'string' || typeof body.inputs !== 'object') return { status: 400, json: { code: 'invalid_param', message: 'query, user and inputs are required', status: 400 } };
    const ids = { task_id: 'task-1', message_id: 'msg-1', conversation_id: 'conv-1', created_at: 1705407629 };
    if (body.response_mode === 'blocking') {
      return { status: 200, json: { event: 'message', id: 'msg-1', ...ids, mode: 'chat', answer: DIFY_REPLY_TEXT, metadata: { usage: DIFY_USAGE, retriever_resources: [] } } };
    }
    const events = [
      { event: 'workflow_started', ...ids, data: { id: 'run-1' } },
      ...DIFY_REPLY_TEXT.split(/(?<= )/).map((answer, index) => ({ event: index === 1 ? 'agent_message' : 'message', id: 'msg-1', ...ids, answer })),
      { event: 'agent_thought', id: 'thought-1', ...ids, position: 1, thought: 'Thinking it over', tool: '', tool_input: '', observation: '' },
      { event: 'message_end', id: 'msg-1', ...ids, metadata: { usage: DIFY_USAGE, retriever_resources: [] } },
    ];
    return { status: 200, text: `event: ping\n\n${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}`, contentType: 'text/event-stream' };
  };
}
