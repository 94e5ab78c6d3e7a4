const USAGE_KEY = Buffer.from('"usage"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * The top-level "usage" object of a JSON answer, parsed on its own: OpenAI-style answers end
 * with it, so a long answer need not be parsed whole just to bill it. Undefined when the last
 * `"usage"` is not the key of a top-level object (the caller then parses the whole answer).
 *
 * Quotes inside JSON strings are escaped, so `"usage"` with bare quotes is never generated
 * text: it is a key, or a string value (then no colon follows).
 */
export function topLevelUsage(bytes: Buffer): unknown {
  const key = bytes.lastIndexOf(USAGE_KEY);
  if (key < 0) return undefined;
  const colon = skipSpace(bytes, key + USAGE_KEY.length);
  if (bytes[colon] !== COLON) return undefined;
  const start = skipSpace(bytes, colon + 1);
  if (bytes[start] !== OPEN_OBJECT) return undefined;

  // Scan to the end: the usage object closes back at depth 0, and exactly one more bracket
  // (the answer's own closing brace) may close after it, or the key was not top-level.
  let depth = 0;
  let end = -1;
  for (let at = start; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      at = closingQuote(bytes, at);
      if (at < 0) return undefined;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0 && end < 0) end = at;
      if (depth < -1) return undefined;
    }
  }
  if (end < 0 || depth !== -1) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8', start, end + 1));
  } catch {
    return undefined;
  }
}

function skipSpace(bytes: Buffer, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(bytes: Buffer, open: number): number {
  for (let at = open + 1; at < bytes.length; at++) {
    if (bytes[at] === BACKSLASH) at++;
    else if (bytes[at] === QUOTE) return at;
  }
  return -1;
}
