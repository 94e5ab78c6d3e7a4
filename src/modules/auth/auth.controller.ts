import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthenticatedRequest, CriticalRateLimit, Public } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { readCookie } from '../../common/http/cookies';
import { ApiResult } from '../../common/http/envelope';
import { TurnstileProtected } from '../turnstile/turnstile.guard';
import { TwoFactorCodeDto } from '../two-factor/dto/two-factor.dto';
import { SignInChallenges } from '../two-factor/sign-in-challenge';
import { AuthService } from './auth.service';
import { answerSignInStep } from './sign-in-answer';
import { LoginDto, RegisterDto } from './dto/auth.dto';
import { sessionClient } from '../sessions/session-cookie';
import { SESSION_COOKIE, SessionsService } from '../sessions/sessions.service';

@Controller('api/user')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly challenges: SignInChallenges,
  ) {}

  @Public()
  @CriticalRateLimit()
  @TurnstileProtected()
  @Post('login')
  async login(@Body() dto: LoginDto, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const previous = await this.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    const step = await this.auth.login(dto.username, dto.password, { ...sessionClient(request), previousSessionId: previous?.id });
    return answerSignInStep(step, this.challenges, request, response);
  }

  /** The second step of a sign-in: the TOTP or recovery code for the challenge the first step set. */
  @Public()
  @CriticalRateLimit()
  @Post('login/2fa')
  async loginSecondFactor(@Body() dto: TwoFactorCodeDto, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const pending = this.challenges.read(request);
    if (!pending) throw new AppError('two_factor.challenge_expired');
    const previous = await this.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    const step = await this.auth.completeSecondFactor(pending, dto.code, { ...sessionClient(request), previousSessionId: previous?.id });
    this.challenges.clear(response);
    return answerSignInStep(step, this.challenges, request, response);
  }

  @Public()
  @CriticalRateLimit()
  @TurnstileProtected()
  @Post('register')
  async register(@Body() dto: RegisterDto): Promise<ApiResult<null>> {
    await this.auth.register(dto);
    return new ApiResult(null, 'user.registered');
  }

  @Public()
  @Get('logout')
  async logout(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: Response): Promise<ApiResult<null>> {
    await this.auth.logout(request.user?.sessionId);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
    return new ApiResult(null, 'user.logged_out');
  }
}
