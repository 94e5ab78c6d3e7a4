import { createHash, createHmac } from 'node:crypto';

/** What Tencent Cloud's TC3-HMAC-SHA256 signature covers, for a POST to `/` without a query. */
export interface Tc3Request {
  secretId: string;
  secretKey: string;
  /** The product's service name (`hunyuan`), part of the credential scope. */
  service: string;
  /** The Host header as sent (with the port when it is not the default). */
  host: string;
  contentType: string;
  payload: string | Buffer;
  /** Seconds since the epoch, also sent as X-TC-Timestamp. */
  timestamp: number;
}

/** The headers the signature covers: the fewest Tencent accepts. */
const SIGNED_HEADERS = 'content-type;host';

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/**
 * The TC3-HMAC-SHA256 signature of a request (Tencent Cloud API 3.0's signature v3): the
 * canonical request's hash signed with a key derived from the secret key, the UTC date and the
 * service. The date is the timestamp's UTC day, so a request signed just before midnight stays valid.
 */
export function tc3Signature(request: Tc3Request): string {
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = ['POST', '/', '', `content-type:${request.contentType}\nhost:${request.host}\n`, SIGNED_HEADERS, sha256Hex(request.payload)].join('\n');
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), `${date}/${request.service}/tc3_request`, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${request.secretKey}`, date), request.service), 'tc3_request');
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

/** The Authorization header of a request signed by TC3-HMAC-SHA256. */
export function tc3Authorization(request: Tc3Request): string {
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  return `TC3-HMAC-SHA256 Credential=${request.secretId}/${date}/${request.service}/tc3_request, SignedHeaders=${SIGNED_HEADERS}, Signature=${tc3Signature(request)}`;
}
