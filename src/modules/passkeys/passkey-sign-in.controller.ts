import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthenticatedRequest, CriticalRateLimit, Public } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { answerSignInStep } from '../auth/sign-in-answer';
import { sessionClient } from '../sessions/session-cookie';
import { PendingSignIn, SignInChallenges } from '../two-factor/sign-in-challenge';
import { PasskeyCeremonyDto } from './dto/passkey.dto';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasskeysService } from './passkeys.service';
import type { PasskeySecondFactorView, PasskeySignInOptionsView } from './passkeys.wire';
import { RelyingPartyResolver } from './relying-party';

/**
 * Sign-in with a passkey, alone or as the second step. Under /api/user/login so the browser
 * sends the two-factor challenge cookie (scoped to that path). Only the option calls, which
 * store a challenge, count against the critical rate limit: each answer needs one of them.
 */
@Controller('api/user/login')
export class PasskeySignInController {
  constructor(
    private readonly signIns: PasskeySignInService,
    private readonly passkeys: PasskeysService,
    private readonly relyingParty: RelyingPartyResolver,
    private readonly challenges: SignInChallenges,
  ) {}

  @Public()
  @CriticalRateLimit()
  @Post('passkey/options')
  signInOptions(@Req() request: Request): Promise<PasskeySignInOptionsView> {
    return this.passkeys.signInOptions(this.relyingParty.resolve(request));
  }

  @Public()
  @Post('passkey')
  async signIn(@Body() dto: PasskeyCeremonyDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    const step = await this.signIns.signIn(dto.response, { ...sessionClient(request), previousSessionId: request.user?.sessionId });
    return answerSignInStep(step, this.challenges, request, response);
  }

  /** Whether the account waiting for its second factor has a passkey, so the code step can offer it. */
  @Public()
  @Get('2fa/passkey')
  async secondFactorAvailable(@Req() request: Request): Promise<PasskeySecondFactorView> {
    const pending = this.challenges.read(request);
    return { available: pending !== null && (await this.passkeys.hasPasskey(pending.userId)) };
  }

  @Public()
  @CriticalRateLimit()
  @Post('2fa/passkey/options')
  secondFactorOptions(@Req() request: Request): Promise<PasskeySignInOptionsView> {
    return this.passkeys.secondFactorOptions(this.pendingSignIn(request).userId, this.relyingParty.resolve(request));
  }

  @Public()
  @Post('2fa/passkey')
  async completeSecondFactor(@Body() dto: PasskeyCeremonyDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response) {
    const pending = this.pendingSignIn(request);
    const step = await this.signIns.completeSecondFactor(pending, dto.response, { ...sessionClient(request), previousSessionId: request.user?.sessionId });
    this.challenges.clear(response);
    return answerSignInStep(step, this.challenges, request, response);
  }

  /** The sign-in whose first step passed, from the signed challenge cookie that step set. */
  private pendingSignIn(request: Request): PendingSignIn {
    const pending = this.challenges.read(request);
    if (!pending) throw new AppError('two_factor.challenge_expired');
    return pending;
  }
}
