import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthenticatedRequest, CriticalRateLimit, Public } from '../../common/auth/auth.decorators';
import { readCookie } from '../../common/http/cookies';
import { ApiResult } from '../../common/http/envelope';
import { TurnstileProtected } from '../turnstile/turnstile.guard';
import { AuthService } from './auth.service';
import { LoginDto, RegisterDto } from './dto/auth.dto';
import { setSessionCookie } from '../sessions/session-cookie';
import { SESSION_COOKIE, SessionsService } from '../sessions/sessions.service';

@Controller('api/user')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
  ) {}

  @Public()
  @CriticalRateLimit()
  @TurnstileProtected()
  @Post('login')
  async login(@Body() dto: LoginDto, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const previous = await this.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    const { user, cookie } = await this.auth.login(dto.username, dto.password, previous?.id);
    setSessionCookie(request, response, cookie);
    return new ApiResult(user, 'user.login_success');
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
