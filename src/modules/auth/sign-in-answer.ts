import type { Request, Response } from 'express';
import { ApiResult } from '../../common/http/envelope';
import { setSessionCookie } from '../sessions/session-cookie';
import { SignInChallenges } from '../two-factor/sign-in-challenge';
import type { SecondFactorChallengeView } from '../two-factor/two-factor.wire';
import type { SignedInUserView, SignInStep } from './auth.service';

/**
 * A sign-in step as the browser sees it: a session cookie and the user, or the challenge
 * cookie and `{require_2fa: true}` (password and third-party sign-in alike).
 */
export function answerSignInStep(step: SignInStep, challenges: SignInChallenges, request: Request, response: Response): ApiResult<SignedInUserView | SecondFactorChallengeView> {
  if (step.kind === 'second_factor') {
    challenges.issue(request, response, step.pending);
    return new ApiResult<SecondFactorChallengeView>({ require_2fa: true }, 'two_factor.code_needed');
  }
  setSessionCookie(request, response, step.cookie);
  return new ApiResult(step.user, 'user.login_success');
}
