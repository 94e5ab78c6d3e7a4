import type { ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../../common/logging/request-context';
import type { WireFormat } from './wire/wire-format';

/**
 * Codes of relay failures. `channel:*` marks a fault of the upstream channel (its key, its
 * quota, its availability): those drive failover and auto-disable. Others are the client's.
 */
export type RelayErrorCode =
  | 'invalid_api_key'
  | 'token_disabled'
  | 'token_expired'
  | 'token_quota_exhausted'
  | 'ip_not_allowed'
  | 'model_not_allowed'
  | 'user_banned'
  | 'insufficient_quota'
  | 'model_price_not_set'
  | 'model_not_found'
  | 'group_not_allowed'
  | 'no_available_channel'
  | 'invalid_request'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'response_too_large'
  | 'not_found'
  | 'not_implemented'
  | 'task_not_found'
  | 'feature_disabled'
  | 'rate_limit_exceeded'
  | 'budget_exceeded'
  | 'sensitive_words_detected'
  | 'upstream_request_error'
  | 'channel:unauthorized'
  | 'channel:rate_limited'
  | 'channel:server_error'
  | 'channel:timeout'
  | 'channel:connection_error'
  | 'channel:address_refused'
  | 'channel:bad_response'
  | 'service_unavailable'
  | 'internal_error';

const ERROR_TYPES: Partial<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  501: 'invalid_request_error',
};

/** A relay failure with the HTTP status the client gets and whether failover may try another channel. */
export class RelayError extends Error {
  /** The code shown to the client when it should be the upstream's own (pass-through errors). */
  wireCode?: string;
  /** Seconds after which the client may retry, sent as Retry-After (OpenAI's and Anthropic's clients wait that long). */
  retryAfterSeconds?: number;
  /** More headers of the answer (the rate limits' x-ratelimit-*). */
  headers?: Record<string, string | number>;

  constructor(
    readonly code: RelayErrorCode,
    message: string,
    public status: number,
    /** True when retrying on another channel cannot help (the request itself is at fault). */
    readonly skipRetry = !code.startsWith('channel:'),
    /** The upstream's status, when the failure came from an upstream answer. */
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'RelayError';
  }

  get isChannelFault(): boolean {
    return this.code.startsWith('channel:');
  }
}

/** The model is listed by no channel at all, as OpenAI answers an unknown model (clients do not retry it). */
export function modelNotFound(model: string): RelayError {
  return new RelayError('model_not_found', `The model ${model} does not exist or no channel serves it`, 404);
}

/** A percent-encoded path segment (a model, a task id), decoded; malformed encoding (`%ff`) is the client's fault, not a 500. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RelayError('invalid_request', 'The request path is not valid percent-encoded UTF-8', 400);
  }
}

export { REQUEST_ID_HEADER };

/** Claude's error types, by status (its `{type:"error", error:{type, message}}` shape). */
const CLAUDE_ERROR_TYPES: Partial<Record<number, string>> = { ...ERROR_TYPES, 413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error' };

/** Google's canonical status names, by HTTP status. */
const GOOGLE_STATUSES: Partial<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The message with the request id, which the client can quote to the operator. */
function messageWithId(error: RelayError, requestId: string): string {
  return requestId ? `${error.message} (request id: ${requestId})` : error.message;
}

/** The error body in the client's wire format: OpenAI's {"error":{message,type,code}}, Claude's or Google's. */
export function relayErrorBody(format: WireFormat, error: RelayError, requestId: string): string {
  const message = messageWithId(error, requestId);
  if (format === 'claude') {
    const type = CLAUDE_ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  if (format === 'gemini') {
    const status = GOOGLE_STATUSES[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
    return JSON.stringify({ error: { code: error.status, message, status } });
  }
  const type = ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'upstream_error' : 'invalid_request_error');
  return JSON.stringify({ error: { message, type, param: null, code: error.wireCode ?? error.code.replace('channel:', 'upstream_') } });
}

/** Writes a relay error unless the answer has already begun (then the connection just ends). */
export function sendRelayError(response: ServerResponse, error: RelayError, format: WireFormat = 'openai', requestId = ''): void {
  if (response.headersSent) {
    if (!response.writableEnded) response.end();
    return;
  }
  const body = relayErrorBody(format, error, requestId);
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = error.retryAfterSeconds;
  if (error.headers) Object.assign(headers, error.headers);
  if (requestId) headers[REQUEST_ID_HEADER] = requestId;
  response.writeHead(error.status, headers);
  response.end(body);
}
