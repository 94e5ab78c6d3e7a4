import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import type { SignInStep } from '../auth/auth.service';
import { setSessionCookie } from '../sessions/session-cookie';
import { SignInChallenges } from '../two-factor/sign-in-challenge';

/** The console page that finishes a SAML sign-in (loads the user) or shows why it failed. */
export const SAML_LANDING_PATH = '/saml/callback';
/** The login page's second step, as a third-party sign-in that needs the code opens it. */
const SECOND_FACTOR_PATH = '/login?second_factor=1';

/** A session cookie and the landing page, or the challenge cookie and the login page's code step. */
export function landingAfterSignIn(step: SignInStep, challenges: SignInChallenges, request: Request, response: Response): string {
  if (step.kind === 'second_factor') {
    challenges.issue(request, response, step.pending);
    return SECOND_FACTOR_PATH;
  }
  setSessionCookie(request, response, step.cookie);
  return SAML_LANDING_PATH;
}

/** A refusal the console explains by its code; anything unexpected goes on to the error filter. */
export function landingForFailure(error: unknown): string {
  if (!(error instanceof AppError)) throw error;
  return `${SAML_LANDING_PATH}?error=${encodeURIComponent(error.code)}`;
}
