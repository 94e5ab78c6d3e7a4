import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'undici/types/header';
import type { UpstreamAnswer } from '../../../outbound/upstream-answer';

/**
 * An answer already read whole, for the relay to read again as it reads any upstream answer.
 * `bytes` undefined means the body passed the size limit while it was read: then `collect`
 * reports it too large, as the original answer would have.
 */
export function bufferedAnswer(statusCode: number, headers: IncomingHttpHeaders, bytes: Buffer | undefined): UpstreamAnswer {
  let stream: Readable | undefined;
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    statusCode,
    headers,
    header,
    get body() {
      return (stream ??= Readable.from(bytes ? [bytes] : []));
    },
    collect: (limit) => Promise.resolve(bytes && bytes.length <= limit ? bytes : undefined),
    follow: (data, end) => {
      if (bytes) data(bytes);
      end(bytes === undefined);
    },
    pause: () => undefined,
    resume: () => undefined,
    destroy: () => stream?.destroy(),
  };
}

/** An error answer the gateway makes itself, in OpenAI's error shape, for the relay's rules to read as an upstream's. */
export function errorAnswer(statusCode: number, message: string, code?: string): UpstreamAnswer {
  const body = Buffer.from(JSON.stringify({ error: { message, code } }));
  return bufferedAnswer(statusCode, { 'content-type': 'application/json', 'content-length': String(body.length) }, body);
}
