import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { readCookie } from '../../common/http/cookies';
import { nowSeconds } from '../../database/columns';

export const CHALLENGE_COOKIE = 'two_factor_challenge';
/** Time to open the authenticator app and type the code after the password. */
const CHALLENGE_TTL_SECONDS = 5 * 60;

/** A first factor passed and waiting for the second: whose, and what the first step found. */
export interface PendingSignIn {
  userId: number;
  /** Root signed in with a well-known password; the console asks for a change after the second step. */
  requirePasswordChange: boolean;
}

/**
 * The state between a sign-in's two steps, held by the browser in a signed, short-lived,
 * HTTP-only cookie, so any instance can finish the sign-in without shared storage. It grants
 * nothing but the right to try a code, and code attempts are rate-limited per account.
 */
@Injectable()
export class SignInChallenges {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issue(request: Request, response: Response, pending: PendingSignIn): void {
    const payload = [pending.userId, nowSeconds() + CHALLENGE_TTL_SECONDS, pending.requirePasswordChange ? 1 : 0, randomBytes(8).toString('base64url')].join('.');
    response.cookie(CHALLENGE_COOKIE, `${payload}.${this.sign(payload)}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.secure,
      path: '/api/user/login',
      maxAge: CHALLENGE_TTL_SECONDS * 1000,
    });
  }

  read(request: Request): PendingSignIn | null {
    const value = readCookie(request.headers.cookie, CHALLENGE_COOKIE);
    if (!value) return null;
    const dot = value.lastIndexOf('.');
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    if (dot <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [userId, expiresAt, passwordFlag] = payload.split('.').map(Number);
    if (!(expiresAt > nowSeconds())) return null;
    return { userId, requirePasswordChange: passwordFlag === 1 };
  }

  clear(response: Response): void {
    response.clearCookie(CHALLENGE_COOKIE, { path: '/api/user/login' });
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.config.sessionSecret).update(`two-factor-challenge:${payload}`).digest('base64url');
  }
}
