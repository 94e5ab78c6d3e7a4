import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { UpstreamClientService } from '../../upstream-client.service';

/** A Baidu application's credentials: the channel key `API Key|Secret Key`. */
export interface BaiduCredentials {
  apiKey: string;
  secretKey: string;
}

/** The channel key as credentials, or undefined when it is not `API Key|Secret Key`. */
export function parseBaiduKey(key: string): BaiduCredentials | undefined {
  const [apiKey, secretKey, ...rest] = key.split('|').map((part) => part.trim());
  return apiKey && secretKey && rest.length === 0 ? { apiKey, secretKey } : undefined;
}

/**
 * Baidu's token endpoint refused the credentials (`status` 401: the key's fault), or failed
 * itself (its 5xx status). The message names neither the key nor the endpoint's URL.
 */
export class BaiduTokenRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'BaiduTokenRefusedError';
  }
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Baidu's tokens live 30 days; one is renewed this long before it expires, so none expires in flight. */
const RENEW_EARLY_SECONDS = 3600;
const DEFAULT_LIFETIME_SECONDS = 30 * 24 * 3600;
const TOKEN_TIMEOUT_MS = 15_000;

/**
 * Access tokens of Baidu applications (OAuth client credentials at `{base}/oauth/2.0/token`),
 * cached per base URL and key until shortly before they expire. Concurrent requests for one
 * key share one exchange. The credentials travel in the form body, never in a URL.
 */
@Injectable()
export class BaiduTokenService {
  private readonly tokens = new Map<string, Promise<CachedToken>>();

  constructor(private readonly upstream: UpstreamClientService) {}

  /** A valid access token for the credentials: the cached one, or a fresh exchange. */
  async accessToken(base: string, credentials: BaiduCredentials): Promise<string> {
    const cacheKey = tokenCacheKey(base, credentials);
    const cached = this.tokens.get(cacheKey);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      if (entry && entry.expiresAt > Date.now()) return entry.token;
    }
    return this.exchangeShared(cacheKey, base, credentials);
  }

  /**
   * A new token after Baidu refused `refused` (error 110/111: revoked or expired early). When
   * another request has already renewed it, that token is used rather than exchanging again.
   */
  async renew(base: string, credentials: BaiduCredentials, refused: string): Promise<string> {
    const cacheKey = tokenCacheKey(base, credentials);
    const current = this.tokens.get(cacheKey);
    const entry = await current?.catch(() => undefined);
    if (this.tokens.get(cacheKey) !== current) return this.accessToken(base, credentials);
    if (entry && entry.token !== refused && entry.expiresAt > Date.now()) return entry.token;
    return this.exchangeShared(cacheKey, base, credentials);
  }

  private async exchangeShared(cacheKey: string, base: string, credentials: BaiduCredentials): Promise<string> {
    const fresh = this.exchange(base, credentials);
    this.tokens.set(cacheKey, fresh);
    fresh.catch(() => {
      if (this.tokens.get(cacheKey) === fresh) this.tokens.delete(cacheKey);
    });
    return (await fresh).token;
  }

  private async exchange(base: string, credentials: BaiduCredentials): Promise<CachedToken> {
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.apiKey, client_secret: credentials.secretKey }).toString();
    const answer = await this.upstream.send({
      url: new URL(`${base}/oauth/2.0/token`),
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      headersTimeoutMs: TOKEN_TIMEOUT_MS,
      bodyTimeoutMs: TOKEN_TIMEOUT_MS,
    });
    const text = await answer.body.text();
    let parsed: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Not JSON (a proxy's page): judged by its status below.
    }
    if (answer.statusCode < 300 && typeof parsed.access_token === 'string' && parsed.access_token) {
      const lifetime = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_LIFETIME_SECONDS;
      const renewEarly = Math.min(RENEW_EARLY_SECONDS, lifetime / 2);
      return { token: parsed.access_token, expiresAt: Date.now() + (lifetime - renewEarly) * 1000 };
    }
    if (answer.statusCode >= 500) throw new BaiduTokenRefusedError(answer.statusCode, `Baidu's token endpoint failed (status ${answer.statusCode})`);
    // OAuth's error names (invalid_client, …) say what is wrong without quoting anything secret.
    const reason = typeof parsed.error === 'string' && /^[a-z_]{1,40}$/.test(parsed.error) ? `: ${parsed.error}` : '';
    throw new BaiduTokenRefusedError(401, `Baidu refused the channel's API key and secret key${reason}`);
  }
}

/** The cache key of a base URL and credentials: a digest, so the secret is not kept as a map key. */
function tokenCacheKey(base: string, credentials: BaiduCredentials): string {
  return createHash('sha256').update(`${base}\n${credentials.apiKey}\n${credentials.secretKey}`).digest('base64url');
}
