import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { RelayError } from '../../relay-error';

/** How long a signed token is valid: Zhipu checks `exp`; new-api signs for a day, Zhipu's SDK for minutes. */
const TOKEN_LIFETIME_MS = 30 * 60_000;
/** Tokens are signed anew this long before they expire, so none expires in flight. */
const RENEW_EARLY_MS = 5 * 60_000;

/** A Zhipu key of the `id.secret` form, split. */
export interface ZhipuKeyParts {
  id: string;
  secret: string;
}

/** The id and secret of an `id.secret` key, or undefined for a key of another form (a plain API key). */
export function zhipuKeyParts(key: string): ZhipuKeyParts | undefined {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { id: parts[0], secret: parts[1] };
}

function base64Url(value: string): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * Zhipu's authentication tokens: a JWT signed HS256 with the key's secret, its header naming
 * `sign_type: SIGN` and its payload the key's id with `exp` and `timestamp` in milliseconds (as
 * Zhipu's SDKs sign them). Each key's token is kept until shortly before it expires.
 */
@Injectable()
export class ZhipuTokenService {
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();

  /** The signed token of an `id.secret` key; a key of another form is the channel's fault. */
  token(key: string): string {
    const now = Date.now();
    const cached = this.tokens.get(key);
    if (cached && cached.renewAt > now) return cached.token;
    const parts = zhipuKeyParts(key);
    if (!parts) throw new RelayError('channel:unauthorized', 'The Zhipu channel key must be of the form id.secret', 502);
    const token = signToken(parts, now);
    this.forgetExpired(now);
    this.tokens.set(key, { token, renewAt: now + TOKEN_LIFETIME_MS - RENEW_EARLY_MS });
    return token;
  }

  /** The value of the Authorization header: the token as a bearer for `id.secret` keys, else the key itself (Zhipu v4 takes API keys as they are). */
  bearer(key: string): string {
    return `Bearer ${zhipuKeyParts(key) ? this.token(key) : key.trim()}`;
  }

  /** Keys of deleted channels are not kept past their token's life. */
  private forgetExpired(now: number): void {
    for (const [key, entry] of this.tokens) if (entry.renewAt <= now) this.tokens.delete(key);
  }
}

/** A Zhipu JWT for the key, signed at `now` (epoch ms). */
export function signToken(parts: ZhipuKeyParts, now: number): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64Url(JSON.stringify({ api_key: parts.id, exp: now + TOKEN_LIFETIME_MS, timestamp: now }));
  const signature = createHmac('sha256', parts.secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
