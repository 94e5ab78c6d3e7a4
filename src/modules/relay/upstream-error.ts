import type { RelayChannel } from './caches/relay-channel';
import { RelayError } from './relay-error';
import { isRetryableStatus } from './retry-policy';

const MAX_MESSAGE_LENGTH = 1000;

/**
 * Removes what must never be stored, logged or returned from an upstream message: the
 * channel's keys (and each part of a composite `a|b|c` key) and base URL, any other URL,
 * bearer values, key parameters, and anything shaped like an API key.
 */
export function scrubUpstreamMessage(message: string, channel: Pick<RelayChannel, 'keys' | 'baseUrl'>): string {
  let text = message.slice(0, MAX_MESSAGE_LENGTH);
  for (const key of channel.keys) {
    for (const secret of [key, ...key.split('|')]) if (secret.length >= 4) text = text.split(secret).join('***');
  }
  if (channel.baseUrl) text = text.split(channel.baseUrl).join('[upstream]');
  return text
    .replace(/https?:\/\/[^\s"'<>]+/gi, '[upstream]')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+\/=-]+/gi, '$1 ***')
    .replace(/\b((?:api[_-]?)?key|token|secret|access_token|x-goog-api-key)([=:]\s*)[^\s&"',;]+/gi, '$1$2***')
    .replace(/\bAIza[0-9A-Za-z_-]{20,}/g, 'AIza***')
    .replace(/\b(sk|key|org|ak|pk)-[A-Za-z0-9_*-]{6,}/g, '$1-***');
}

/** The message and code of an upstream error body in OpenAI's (or a similar) shape. */
export function readUpstreamError(text: string): { message: string; code?: string } {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string; message?: unknown; errors?: unknown };
    if (typeof body.error === 'string') return { message: body.error };
    // Cloudflare's API: {"success": false, "errors": [{"code": 10000, "message": "Authentication error"}]}
    const listed = Array.isArray(body.errors) ? (body.errors[0] as { message?: unknown } | undefined) : undefined;
    const message = body.error?.message ?? body.message ?? listed?.message;
    const code = body.error?.code;
    if (typeof message === 'string') return { message, code: typeof code === 'string' ? code : undefined };
  } catch {
    /* not JSON: the raw text is the message */
  }
  return { message: text.trim() };
}

/**
 * The relay error for an upstream error answer. Channel faults (401, 429, 5xx but 504/524, or
 * a message that got the channel disabled) may fail over; other 4xx pass through as the
 * request's own fault, with the upstream's status and message.
 */
export function upstreamFailure(channel: RelayChannel, status: number, bodyText: string, channelDisabled: boolean): RelayError {
  const { message, code } = readUpstreamError(bodyText);
  const safe = scrubUpstreamMessage(message || `The upstream answered ${status}`, channel);
  if (status === 401 || channelDisabled) return new RelayError('channel:unauthorized', 'The upstream rejected the channel credentials', 502, false, status);
  if (status === 429) return new RelayError('channel:rate_limited', safe, 429, false, status);
  if (isRetryableStatus(status)) return new RelayError('channel:server_error', safe, status, false, status);
  const error = new RelayError('upstream_request_error', safe, status, true, status);
  if (code) error.wireCode = scrubUpstreamMessage(code, channel);
  return error;
}

/** The channel's status_code_mapping applied to the status the client gets. */
export function mappedStatus(channel: RelayChannel, status: number): number {
  const mapped = Number(channel.statusCodeMapping[String(status)]);
  return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status;
}
