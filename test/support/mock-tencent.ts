import { timingSafeEqual } from 'node:crypto';
import { tc3Signature } from '../../src/modules/relay/providers/tencent/tc3-signature';
import type { MockReply, ReceivedRequest } from './mock-upstream';

/** The credentials the mock Tencent Cloud knows: a channel key is `AppId|SecretId|SecretKey`. */
export const TENCENT_SECRET_ID = 'AKIDmock4f1b2c3d4e5f6a7b8c9d0e1f2a3b';
export const TENCENT_SECRET_KEY = 'mockSecretKey7c1e2d3f4a5b6c7d8e9f0a1b';
export const TENCENT_KEY = `1300000001|${TENCENT_SECRET_ID}|${TENCENT_SECRET_KEY}`;

export const HUNYUAN_REPLY_TEXT = 'Hello from mock Hunyuan!';
export const HUNYUAN_USAGE = { PromptTokens: 11, CompletionTokens: 6, TotalTokens: 17 };
export const HUNYUAN_EMBEDDING_USAGE = { PromptTokens: 6, TotalTokens: 6 };

/** How far Tencent lets X-TC-Timestamp drift from its clock, in seconds. */
const CLOCK_SKEW_SECONDS = 300;
const NOTE = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记';

/** Tencent Cloud's error answer: status 200, the error inside Response. */
export function tencentError(code: string, message: string): MockReply {
  return { status: 200, json: { Response: { Error: { Code: code, Message: message }, RequestId: 'req-mock-error' } } };
}

function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : (value ?? '');
}

/**
 * Tencent Cloud API 3.0's authentication, recomputed: the Authorization header parsed, the
 * SecretId looked up, the timestamp and credential date checked, and the TC3-HMAC-SHA256
 * signature of the request as received recomputed with the secret key. Undefined when it holds.
 */
function authenticate(request: ReceivedRequest): MockReply | undefined {
  const match = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(header(request, 'authorization'));
  if (!match) return tencentError('AuthFailure.InvalidAuthorization', 'Authorization header format is invalid.');
  const [, secretId, date, service, signedHeaders, signature] = match;
  if (secretId !== TENCENT_SECRET_ID) return tencentError('AuthFailure.SecretIdNotFound', 'The SecretId is not found, please ensure that your SecretId is correct.');
  const timestamp = Number(header(request, 'x-tc-timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > CLOCK_SKEW_SECONDS) return tencentError('AuthFailure.SignatureExpire', 'Signature expired.');
  if (service !== 'hunyuan' || date !== new Date(timestamp * 1000).toISOString().slice(0, 10) || signedHeaders !== 'content-type;host') {
    return tencentError('AuthFailure.SignatureFailure', 'The provided credentials could not be validated because of exceeding request size limit, please use new signature method `TC3-HMAC-SHA256`.');
  }
  const expected = tc3Signature({ secretId, secretKey: TENCENT_SECRET_KEY, service, host: header(request, 'host'), contentType: header(request, 'content-type'), payload: request.raw, timestamp });
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return tencentError('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
  return undefined;
}

/**
 * Tencent Hunyuan (API 3.0, version 2023-09-01) on the mock upstream: ChatCompletions (a JSON
 * answer, or SSE of the Response's members with usage as running totals; a forced tool, as
 * ToolChoice custom, is called) and GetEmbedding,
 * every request authenticated as Tencent does, every error in its `Response.Error` shape.
 */
export function hunyuanReply(request: ReceivedRequest): MockReply {
  if (request.method !== 'POST' || request.path !== '/') return { status: 404, json: { message: 'not found' } };
  const refusal = authenticate(request);
  if (refusal) return refusal;
  if (header(request, 'x-tc-version') !== '2023-09-01') return tencentError('InvalidParameter', 'The Version is not supported.');
  const action = header(request, 'x-tc-action');
  const body = request.body;
  if (action === 'GetEmbedding') {
    const inputs = Array.isArray(body.InputList) ? body.InputList : [body.Input];
    const data = inputs.map((_, index) => ({ Embedding: [index, 0.5, 0.25], Index: index, Object: 'embedding' }));
    return { status: 200, json: { Response: { Data: data, Usage: HUNYUAN_EMBEDDING_USAGE, RequestId: 'req-mock-embedding' } } };
  }
  if (action !== 'ChatCompletions') return tencentError('InvalidAction', `The action ${action} is not supported.`);
  const messages = body.Messages as Array<{ Role?: string; Content?: string }> | undefined;
  if (!Array.isArray(messages) || messages.length === 0 || messages[messages.length - 1].Role !== 'user') return tencentError('InvalidParameter', 'Messages 中最后一个元素的 Role 必须为 user');
  const base = { Note: NOTE, Created: 1700000000, Id: 'req-mock-chat' };
  const forced = body.ToolChoice === 'custom' ? (body.CustomTool as { Function?: { Name?: string } } | undefined)?.Function?.Name : undefined;
  if (body.Stream !== true) {
    const message = forced ? { Role: 'assistant', Content: '', ToolCalls: [{ Id: 'call_mock', Type: 'function', Function: { Name: forced, Arguments: '{"city":"Paris"}' } }] } : { Role: 'assistant', Content: HUNYUAN_REPLY_TEXT };
    return { status: 200, json: { Response: { ...base, Choices: [{ Index: 0, Message: message, FinishReason: forced ? 'tool_calls' : 'stop' }], Usage: HUNYUAN_USAGE, RequestId: base.Id } } };
  }
  const pieces = HUNYUAN_REPLY_TEXT.split(/(?<= )/);
  const events = pieces.map((piece, index) => {
    const last = index === pieces.length - 1;
    const usage = { PromptTokens: HUNYUAN_USAGE.PromptTokens, CompletionTokens: last ? HUNYUAN_USAGE.CompletionTokens : index + 1, TotalTokens: HUNYUAN_USAGE.PromptTokens + (last ? HUNYUAN_USAGE.CompletionTokens : index + 1) };
    return `data: ${JSON.stringify({ ...base, Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: piece }, FinishReason: last ? 'stop' : '' }], Usage: usage })}\n\n`;
  });
  return { status: 200, text: events.join(''), contentType: 'text/event-stream' };
}
