import type { IncomingMessage } from 'node:http';
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

function tooLarge(limitBytes: number): RelayError {
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
