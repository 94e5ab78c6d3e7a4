import type { MockHandler, MockReply, ReceivedRequest } from './mock-upstream';

/** What the mock MiniMax reports for every chat answer, and its reply. */
export const MINIMAX_USAGE = { total_tokens: 30, total_characters: 0, prompt_tokens: 21, completion_tokens: 9 };
export const MINIMAX_REPLY_TEXT = 'Hello from mock MiniMax!';
/** The key of an account without balance: the mock answers MiniMax's 1008. */
export const MINIMAX_BROKE_KEY = 'mm-broke-account';

const OK = { status_code: 0, status_msg: '' };
const SENSITIVITY = { input_sensitive: false, output_sensitive: false, input_sensitive_type: 0, output_sensitive_type: 0, output_sensitive_int: 0 };

/** MiniMax's error answer: HTTP 200 with the error in base_resp, as MiniMax answers them. */
function refusal(statusCode: number, statusMsg: string): MockReply {
  return { status: 200, json: { id: '', choices: null, base_resp: { status_code: statusCode, status_msg: statusMsg } } };
}

/**
 * MiniMax's chat completion v2 and embeddings on the mock upstream, keyed by the bearer
 * token `key` as MiniMax checks it (a wrong one: status 1004 inside a 200 answer). A stream
 * ends as MiniMax's does: a last event repeating the whole message, with the usage.
 */
export function miniMaxReply(key: string): MockHandler {
  return (request: ReceivedRequest) => {
    const auth = request.headers.authorization;
    if (auth === `Bearer ${MINIMAX_BROKE_KEY}`) return refusal(1008, 'insufficient balance');
    if (auth !== `Bearer ${key}`) return refusal(1004, `login fail: Please carry the API secret key in the Authorization field, got ${String(auth)}`);
    const body = request.body;
    if (request.path === '/v1/embeddings') {
      if (!Array.isArray(body.texts) || (body.type !== 'db' && body.type !== 'query')) return refusal(2013, 'invalid params: texts and type are required');
      return { status: 200, json: { vectors: (body.texts as unknown[]).map((_, index) => [index, 0.5, 0.25]), total_tokens: 6, base_resp: { status_code: 0, status_msg: 'success' } } };
    }
    if (request.path !== '/v1/text/chatcompletion_v2') return { status: 404, json: { base_resp: { status_code: 404, status_msg: `mock has no ${request.path}` } } };
    const model = String(body.model);
    const message = { content: MINIMAX_REPLY_TEXT, role: 'assistant', name: 'MiniMax AI', audio_content: '' };
    const whole = { id: 'mm-chat-1', choices: [{ finish_reason: 'stop', index: 0, message }], created: 1755153113, model, object: 'chat.completion', usage: MINIMAX_USAGE, ...SENSITIVITY, base_resp: OK };
    if (body.stream !== true) return { status: 200, json: whole };
    const deltas = MINIMAX_REPLY_TEXT.split(/(?<= )/).map((content) =>
      JSON.stringify({ id: 'mm-chat-1', choices: [{ index: 0, delta: { content, role: 'assistant', name: 'MiniMax AI', audio_content: '' } }], created: 1755153113, model, object: 'chat.completion.chunk', usage: null, input_sensitive: false, output_sensitive: false }),
    );
    return { sse: [...deltas, JSON.stringify(whole)] };
  };
}
