import type { Profile } from 'passport';
import type { Strategy as OAuth2Strategy } from 'passport-oauth2';
import { AppError } from '../../../common/errors/app-error';

/** The callbacks passport gives a strategy; we supply them to drive one exchange ourselves. */
interface StrategyActions {
  success(user: Profile): void;
  fail(challenge?: unknown): void;
  error(error: Error): void;
  redirect(url: string): void;
  pass(): void;
}

/**
 * Runs a passport OAuth2 strategy's callback step (code → access token → profile) for one
 * request. Client ids and secrets are settings that change at runtime, so each exchange
 * builds its strategy from the current settings instead of registering one at boot.
 */
export function exchangeCodeForProfile(strategy: OAuth2Strategy, code: string, provider: string): Promise<Profile> {
  return new Promise((resolve, reject) => {
    const failed = () => reject(new AppError('oauth.exchange_failed', { provider }));
    const actions: StrategyActions = { success: resolve, fail: failed, error: failed, redirect: failed, pass: failed };
    Object.assign(strategy, actions);
    strategy.authenticate({ query: { code }, body: {} } as never, {});
  });
}

/** passport-oauth2 calls the verify function with the profile it loaded; we just take it. */
export function takeProfile(_accessToken: string, _refreshToken: string, profile: Profile, done: (error: null, user: Profile) => void): void {
  done(null, profile);
}
