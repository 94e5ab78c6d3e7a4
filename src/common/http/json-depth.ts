import type { IncomingMessage } from 'node:http';

/** Deeper than any body the API takes; deep enough nesting otherwise overflows the validation pipe's recursion. */
export const MAX_JSON_DEPTH = 32;

/** The deepest `{`/`[` nesting of raw JSON bytes, not counting brackets inside strings. Stops counting past `limit`. */
export function jsonDepthExceeds(body: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index++) {
    const byte = body[index];
    if (inString) {
      if (byte === 0x5c) index++; // backslash: skip the escaped byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** body-parser's `verify` hook: a too-deep body fails with 400 before it is parsed. */
export function refuseDeepJson(_request: IncomingMessage, _response: unknown, body: Buffer): void {
  if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) throw Object.assign(new Error('JSON nested too deeply'), { status: 400, type: 'entity.too.deep' });
}
