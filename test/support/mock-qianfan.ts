import type { MockHandler } from './mock-upstream';

export const QIANFAN_KEY = 'bce-v3/ALTAK-mockkey/0123456789abcdef';
export const QIANFAN_APP_ID = 'app-7788';

/**
 * Baidu Qianfan's v2 API (OpenAI's wire format under /v2) on the mock upstream: it takes
 * only its API key as a bearer token, answering others as Qianfan does (401,
 * invalid_iam_token), and only the application's `appid` header when one is sent; the answers
 * themselves are the OpenAI mock's.
 */
export const qianfanReply: MockHandler = (request) => {
  if (request.headers.authorization !== `Bearer ${QIANFAN_KEY}`) return { status: 401, json: { error: { code: 'invalid_iam_token', message: 'IAM Certification failed', type: 'invalid_request_error' } } };
  if (request.headers.appid !== undefined && request.headers.appid !== QIANFAN_APP_ID) return { status: 403, json: { error: { code: 'no_parameter_permission', message: 'appid not found', type: 'access_denied' } } };
  const path = request.path.split('?')[0];
  if (!['/v2/chat/completions', '/v2/embeddings', '/v2/models'].includes(path)) return { status: 404, json: { error: { code: 'not_found', message: `no ${path}`, type: 'invalid_request_error' } } };
  return undefined;
};
