import type { IncomingMessage } from 'node:http';
import { hasNonJsonBody } from '../../common/http/json-content-type';
import type { JsonObject } from './wire/wire-format';
import { RelayError } from './relay-error';

/** Reads the whole request body, refusing (413) past the limit without holding more than it. */
export function readRequestBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    request.resume();
    return Promise.reject(tooLarge(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        chunks.length = 0;
        request.removeAllListeners('data');
        request.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    request.once('error', () => reject(new RelayError('invalid_request', 'The request body could not be read', 400)));
  });
}

/** A JSON endpoint refuses (415) a body declared as another type, before reading it. */
export function refuseNonJsonBody(request: IncomingMessage): void {
  if (!hasNonJsonBody(request)) return;
  request.resume();
  throw new RelayError('unsupported_media_type', 'The request body must be JSON (Content-Type: application/json)', 415);
}

/** A JSON object body, or 400. */
export function parseJsonBody(raw: Buffer): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new RelayError('invalid_request', 'The request body is not valid JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RelayError('invalid_request', 'The request body must be a JSON object', 400);
  return parsed as JsonObject;
}

/**
 * A JSON object's bytes with `members` (`"a":1`) added before its closing brace. The bytes
 * parsed as one object, so the last `}` is its own and only whitespace follows it.
 */
export function withMembers(raw: Buffer, members: string): Buffer {
  const close = raw.lastIndexOf(CLOSING_BRACE);
  let last = close - 1;
  while (last >= 0 && JSON_WHITESPACE.has(raw[last])) last--;
  const separator = raw[last] === OPENING_BRACE ? '' : ',';
  return Buffer.concat([raw.subarray(0, close), Buffer.from(separator + members), raw.subarray(close)]);
}

const OPENING_BRACE = 0x7b;
const CLOSING_BRACE = 0x7d;
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export function tooLarge(limitBytes: number): RelayError {
  return new RelayError('request_too_large', `The request body is larger than ${Math.floor(limitBytes / 1024 / 1024)} MB`, 413);
}

/** The `model` field of a multipart/form-data body (audio uploads), without parsing the file parts. */
export function multipartField(body: Buffer, name: string): string | undefined {
  const marker = Buffer.from(`name="${name}"`);
  const at = body.indexOf(marker);
  if (at < 0) return undefined;
  const valueStart = body.indexOf('\r\n\r\n', at);
  if (valueStart < 0) return undefined;
  const valueEnd = body.indexOf('\r\n', valueStart + 4);
  if (valueEnd < 0) return undefined;
  return body.subarray(valueStart + 4, valueEnd).toString('utf8').trim();
}
