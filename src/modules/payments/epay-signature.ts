import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Epay's signature: MD5 over the non-empty parameters except `sign` and `sign_type`, sorted
 * by name and joined as `a=1&b=2`, with the merchant key appended (no separator).
 */
export function epaySign(params: Record<string, string>, key: string): string {
  const payload = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5').update(payload + key, 'utf8').digest('hex');
}

/** Whether `params.sign` is the signature of the other parameters under `key`. */
export function epayVerify(params: Record<string, string>, key: string): boolean {
  const expected = Buffer.from(epaySign(params, key));
  const given = Buffer.from(String(params.sign ?? '').toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
