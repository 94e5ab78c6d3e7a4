import type { ServerResponse } from 'node:http';

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
  | 'not_found'
  | 'upstream_request_error'
  | 'channel:unauthorized'
  | 'channel:rate_limited'
  | 'channel:server_error'
  | 'channel:timeout'
  | 'channel:connection_error'
  | 'channel:address_refused'
  | 'channel:bad_response'
  | 'internal_error';

const ERROR_TYPES: Partial<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** A relay failure with the HTTP status the client gets and whether failover may try another channel. */
export class RelayError extends Error {
  /** The code shown to the client when it should be the upstream's own (pass-through errors). */
  wireCode?: string;

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

/** The error body in OpenAI's wire format: {"error":{"message","type","code"}}. */
export function openAIErrorBody(error: RelayError): string {
  const type = ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'upstream_error' : 'invalid_request_error');
  return JSON.stringify({ error: { message: error.message, type, param: null, code: error.wireCode ?? error.code.replace('channel:', 'upstream_') } });
}

/** Writes a relay error unless the answer has already begun (then the connection just ends). */
export function sendRelayError(response: ServerResponse, error: RelayError): void {
  if (response.headersSent) {
    if (!response.writableEnded) response.end();
    return;
  }
  const body = openAIErrorBody(error);
  response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
