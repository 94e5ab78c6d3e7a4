import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MockReply, ReceivedRequest } from './mock-upstream';

/** The key the mock Zhipu knows: its id names the account, its secret signs the tokens. */
export const ZHIPU_ID = 'f7e0c3a1b2d94e8c';
export const ZHIPU_SECRET = 'zhipu-upstream-secret';
export const ZHIPU_KEY = `${ZHIPU_ID}.${ZHIPU_SECRET}`;
/** A v4 API key sent as it is (not `id.secret`). */
export const ZHIPU_PLAIN_KEY = 'zhipu-plain-upstream-key';
export const ZHIPU_USAGE = { prompt_tokens: 21, completion_tokens: 8, total_tokens: 29 };
export const ZHIPU_REPLY_TEXT = 'Hello from mock Zhipu!';

const TOKEN_ERRORS = {
  missing: { code: '1001', message: 'Header中未收到Authorization参数，无法进行身份验证。' },
  invalid: { code: '1002', message: 'Authorization Token非法，请确认Authorization Token正确传递。' },
  expired: { code: '1003', message: 'Authorization Token已过期，请重新生成/获取。' },
  refused: { code: '1004', message: '通过Authorization Token认证失败' },
};
type TokenError = (typeof TOKEN_ERRORS)[keyof typeof TOKEN_ERRORS];

function segment(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Checks a token as Zhipu does: an HS256 JWT whose header names sign_type SIGN, signed with
 * the secret of the account its `api_key` names, not past its `exp` (milliseconds). v4 also
 * takes the plain API key as it is.
 */
function tokenError(authorization: string | undefined, plainKeyAllowed: boolean): TokenError | undefined {
  if (!authorization) return TOKEN_ERRORS.missing;
  const token = authorization.replace(/^Bearer /, '');
  if (plainKeyAllowed && token === ZHIPU_PLAIN_KEY) return undefined;
  const [header, payload, signature] = token.split('.');
  const headerFields = segment(header ?? '');
  const claims = segment(payload ?? '');
  if (!signature || headerFields?.alg !== 'HS256' || headerFields.sign_type !== 'SIGN' || !claims) return TOKEN_ERRORS.invalid;
  if (claims.api_key !== ZHIPU_ID) return TOKEN_ERRORS.refused;
  const expected = createHmac('sha256', ZHIPU_SECRET).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return TOKEN_ERRORS.invalid;
  if (typeof claims.exp !== 'number' || claims.exp <= Date.now() || typeof claims.timestamp !== 'number') return TOKEN_ERRORS.expired;
  return undefined;
}

const words = (text: string): string[] => text.split(/(?<= )/);

/**
 * Zhipu's API on the mock upstream. v3 (`/api/paas/v3/model-api/{model}/invoke|sse-invoke`):
 * the JWT as the Authorization header, errors inside 200 answers (`{code, msg, success}`), the
 * stream as `event: add|finish` with raw-text data lines and the usage in `meta:`. v4
 * (`/api/paas/v4/chat/completions|embeddings`): OpenAI's shapes, the usage in the stream's
 * last chunk, errors as `{"error": {"code", "message"}}` with an HTTP status.
 */
export function zhipuReply(request: ReceivedRequest): MockReply {
  const v3 = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/.exec(request.path);
  if (v3) return v3Reply(request, decodeURIComponent(v3[1]), v3[2] === 'sse-invoke');
  const v4 = /^\/api\/paas\/v4\/(chat\/completions|embeddings)$/.exec(request.path);
  if (!v4) return { status: 404, json: { error: { code: '1222', message: `API ${request.path} 不存在` } } };
  const refused = tokenError(request.headers.authorization, true);
  if (refused) return { status: 401, json: { error: refused } };
  const model = String(request.body.model);
  if (v4[1] === 'embeddings') {
    const inputs = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
    return { status: 200, json: { model, object: 'list', data: inputs.map((_, index) => ({ index, object: 'embedding', embedding: [index, 0.5] })), usage: { prompt_tokens: 6, completion_tokens: 0, total_tokens: 6 } } };
  }
  if (!Array.isArray(request.body.messages)) return { status: 400, json: { error: { code: '1214', message: 'messages 参数非法。请检查文档。' } } };
  const base = { id: 'zhipu-v4-mock', created: 1700000000, model };
  if (request.body.stream !== true) {
    return { status: 200, json: { ...base, request_id: 'zhipu-v4-mock', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: ZHIPU_REPLY_TEXT } }], usage: ZHIPU_USAGE } };
  }
  const pieces = words(ZHIPU_REPLY_TEXT);
  const events = pieces.map((piece, index) => {
    const last = index === pieces.length - 1;
    return JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: piece }, ...(last ? { finish_reason: 'stop' } : {}) }], ...(last ? { usage: ZHIPU_USAGE } : {}) });
  });
  return { sse: [...events, '[DONE]'] };
}

function v3Reply(request: ReceivedRequest, model: string, stream: boolean): MockReply {
  const refused = tokenError(request.headers.authorization, false);
  if (refused) return { status: 200, json: { code: Number(refused.code), msg: refused.message, success: false } };
  if (!Array.isArray(request.body.prompt) || request.body.prompt.length === 0) return { status: 200, json: { code: 1214, msg: 'prompt 参数非法。请检查文档。', success: false } };
  const ids = { request_id: `req-${model}`, task_id: `task-${model}` };
  if (!stream) {
    // v3 answers the content JSON-encoded.
    return { status: 200, json: { code: 200, msg: '操作成功', data: { ...ids, task_status: 'SUCCESS', choices: [{ role: 'assistant', content: JSON.stringify(ZHIPU_REPLY_TEXT) }], usage: ZHIPU_USAGE }, success: true } };
  }
  // Incremental: each event the new piece; otherwise the whole text so far.
  const pieces = words(ZHIPU_REPLY_TEXT);
  const incremental = request.body.incremental === true;
  const events = pieces.map((piece, index) => `id:${ids.request_id}\nevent:add\ndata:${incremental ? piece : pieces.slice(0, index + 1).join('')}\n\n`);
  events.push(`id:${ids.request_id}\nevent:finish\ndata:\nmeta:${JSON.stringify({ task_status: 'SUCCESS', usage: ZHIPU_USAGE, ...ids })}\n\n`);
  return { status: 200, text: events.join(''), contentType: 'text/event-stream;charset=UTF-8' };
}
