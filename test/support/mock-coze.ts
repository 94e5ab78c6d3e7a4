import type { MockHandler, ReceivedRequest } from './mock-upstream';

export const COZE_REPLY_TEXT = 'Hello from mock Coze!';
/** What the mock Coze reports in conversation.chat.completed. */
export const COZE_USAGE = { token_count: 33, output_count: 8, input_count: 25 };
/** The token of an account whose quota is used up: the mock answers code 4028. */
export const COZE_BROKE_TOKEN = 'pat_broke';

/**
 * Coze's v3 chat API on the mock upstream, keyed by a personal access token as a bearer token
 * (a wrong one: `{code: 4100, msg}`, in a 200 answer). Only streams, since the gateway always
 * asks for one: Coze's framing (`event:` and `data:` lines without spaces), a reasoning delta,
 * answer deltas, the completed message, a follow-up suggestion, the chat's usage, `done`.
 */
export function cozeReply(token: string): MockHandler {
  return (request: ReceivedRequest) => {
    const auth = request.headers.authorization;
    if (auth === `Bearer ${COZE_BROKE_TOKEN}`) return { status: 200, json: { code: 4028, msg: 'The free quota of your account has been used up', detail: { logid: 'log-1' } } };
    if (auth !== `Bearer ${token}`) return { status: 200, json: { code: 4100, msg: 'authentication is invalid', detail: { logid: 'log-1' } } };
    if (request.path !== '/v3/chat') return { status: 404, json: { code: 4004, msg: `mock has no ${request.path}` } };
    const body = request.body;
    if (typeof body.bot_id !== 'string' || typeof body.user_id !== 'string') return { status: 200, json: { code: 4000, msg: 'bot_id and user_id are required' } };
    if (body.stream !== true) return { status: 200, json: { code: 4000, msg: 'the mock answers streams only: poll /v3/chat/retrieve otherwise' } };
    const chat = { id: 'chat-1', conversation_id: 'conv-1', bot_id: body.bot_id, created_at: 1718792694, last_error: { code: 0, msg: '' }, section_id: 'conv-1' };
    const message = (content: string, extra: object = {}) => ({ id: 'msg-1', conversation_id: 'conv-1', bot_id: body.bot_id, role: 'assistant', type: 'answer', content, content_type: 'text', chat_id: 'chat-1', ...extra });
    const events: Array<[string, unknown]> = [
      ['conversation.chat.created', { ...chat, status: 'created' }],
      ['conversation.chat.in_progress', { ...chat, status: 'in_progress' }],
      ['conversation.message.delta', message('', { reasoning_content: 'Greeting back.' })],
      ...COZE_REPLY_TEXT.split(/(?<= )/).map((content): [string, unknown] => ['conversation.message.delta', message(content)]),
      ['conversation.message.completed', message(COZE_REPLY_TEXT, { reasoning_content: 'Greeting back.' })],
      ['conversation.message.completed', message('Want to know more?', { id: 'msg-2', type: 'follow_up' })],
      ['conversation.chat.completed', { ...chat, status: 'completed', completed_at: 1718792697, usage: COZE_USAGE }],
      ['done', '[DONE]'],
    ];
    return { status: 200, text: events.map(([event, data]) => `event:${event}\ndata:${JSON.stringify(data)}\n\n`).join(''), contentType: 'text/event-stream' };
  };
}
