import { Injectable } from '@nestjs/common';
import { createSign } from 'node:crypto';
import { RelayError } from '../../relay-error';
import { UpstreamClientService } from '../../upstream-client.service';

/** The fields of a Google service-account JSON key the gateway uses. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  project_id: string;
  token_uri: string;
}

const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Tokens are renewed this long before they expire, so none expires in flight. */
const RENEW_EARLY_SECONDS = 300;
const TOKEN_TIMEOUT_MS = 15_000;

export function parseServiceAccountKey(key: string): ServiceAccountKey {
  let parsed: Partial<ServiceAccountKey>;
  try {
    parsed = JSON.parse(key) as Partial<ServiceAccountKey>;
  } catch {
    throw new RelayError('channel:unauthorized', 'The Vertex AI channel key must be a service-account JSON key', 502);
  }
  if (!parsed.client_email || !parsed.private_key || !parsed.project_id) throw new RelayError('channel:unauthorized', 'The Vertex AI key lacks client_email, private_key or project_id', 502);
  return { client_email: parsed.client_email, private_key: parsed.private_key, project_id: parsed.project_id, token_uri: parsed.token_uri || GOOGLE_TOKEN_URI };
}

function base64Url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * OAuth2 access tokens for service accounts: a JWT signed RS256 with the account's private key,
 * exchanged at its token_uri (through the outbound guard), cached until shortly before expiry.
 * Concurrent requests for the same account share one exchange.
 */
@Injectable()
export class VertexTokenService {
  private readonly tokens = new Map<string, Promise<{ token: string; expiresAt: number }>>();

  constructor(private readonly upstream: UpstreamClientService) {}

  async accessToken(account: ServiceAccountKey): Promise<string> {
    const cacheKey = `${account.client_email}|${account.token_uri}`;
    const cached = this.tokens.get(cacheKey);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      if (entry && entry.expiresAt > Date.now()) return entry.token;
    }
    const fresh = this.exchange(account);
    this.tokens.set(cacheKey, fresh);
    fresh.catch(() => this.tokens.delete(cacheKey));
    return (await fresh).token;
  }

  private async exchange(account: ServiceAccountKey): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const header = base64Url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const claims = base64Url(JSON.stringify({ iss: account.client_email, scope: SCOPE, aud: account.token_uri, iat: now, exp: now + 3600 }));
    let signature: string;
    try {
      signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.private_key, 'base64url');
    } catch {
      throw new RelayError('channel:unauthorized', 'The Vertex AI private key could not sign a token request', 502);
    }
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${header}.${claims}.${signature}` }).toString();
    const answer = await this.upstream.send({
      url: new URL(account.token_uri),
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      headersTimeoutMs: TOKEN_TIMEOUT_MS,
      bodyTimeoutMs: TOKEN_TIMEOUT_MS,
    });
    const text = await answer.body.text();
    const parsed = (() => {
      try {
        return JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
      } catch {
        return {};
      }
    })();
    if (answer.statusCode >= 400 || typeof parsed.access_token !== 'string') throw new RelayError('channel:unauthorized', 'Google refused the Vertex AI service account', 502);
    const lifetime = typeof parsed.expires_in === 'number' ? parsed.expires_in : 3600;
    return { token: parsed.access_token, expiresAt: Date.now() + Math.max(0, lifetime - RENEW_EARLY_SECONDS) * 1000 };
  }
}
