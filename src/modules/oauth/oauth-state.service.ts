import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { OneTimeCodesService } from '../verification/one-time-codes.service';

const STATE_TTL_SECONDS = 10 * 60;

/** The browser's half of a state: kept in an httpOnly cookie, never sent to the provider. */
export const OAUTH_BROWSER_COOKIE = 'oauth_browser';

/**
 * OAuth states: random, single-use, expiring after ten minutes and bound to the browser that
 * asked for them (through a random value in a cookie), so a callback URL carried to another
 * browser, or replayed, is refused. A state also carries the referral code of the sign-up.
 */
@Injectable()
export class OAuthStateService {
  constructor(private readonly codes: OneTimeCodesService) {}

  /** A new state; `browser` is the cookie value to keep (a new one when the browser had none). */
  async create(affCode: string | undefined, browserCookie: string | undefined): Promise<{ state: string; browser: string }> {
    const browser = browserCookie && /^[\w-]{32}$/.test(browserCookie) ? browserCookie : randomBytes(24).toString('base64url');
    const state = randomAlphanumeric(24);
    await this.codes.issue('oauth_state', state, browser, { ttlSeconds: STATE_TTL_SECONDS, data: (affCode ?? '').slice(0, 32) });
    return { state, browser };
  }

  /** Uses up the state and returns its referral code; throws for an unknown, used, expired or foreign state. */
  async consume(state: string | undefined, browserCookie: string | undefined): Promise<{ affCode: string }> {
    const matched = state && browserCookie ? await this.codes.consume('oauth_state', state, browserCookie, 1) : null;
    if (!matched) throw new AppError('oauth.state_invalid');
    return { affCode: matched.data };
  }
}
