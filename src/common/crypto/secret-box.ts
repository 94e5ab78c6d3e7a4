import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

const PREFIX = 'enc:v1:';

/** AES-256-GCM with a key derived from CRYPTO_SECRET; used for channel keys and secret settings at rest. */
export class SecretBox {
  private readonly key: Buffer;
  private readonly hashKey: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`secret-box:${secret}`).digest();
    this.hashKey = createHash('sha256').update(`keyed-hash:${secret}`).digest();
  }

  /** HMAC-SHA256 (hex) keyed by the server secret: a lookup handle for a value stored encrypted (API keys). */
  keyedHash(value: string): string {
    return createHmac('sha256', this.hashKey).update(value).digest('hex');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  isEncrypted(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** Values written before encryption was on (no prefix) are returned unchanged. */
  decrypt(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [iv, tag, body] = stored.slice(PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

export const SECRET_BOX = Symbol('SECRET_BOX');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random letters and digits from the CSPRNG (no modulo bias). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
