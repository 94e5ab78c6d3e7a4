import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CriticalRateLimit, Public } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { TurnstileProtected } from '../turnstile/turnstile.guard';
import { ConfirmResetDto, EmailQueryDto } from './dto/verification.dto';
import { EmailVerificationService } from './email-verification.service';
import { PasswordResetService } from './password-reset.service';

/** Verification codes by mail, and password reset by mailed link. */
@Controller('api')
export class VerificationController {
  constructor(
    private readonly emailVerification: EmailVerificationService,
    private readonly passwordReset: PasswordResetService,
  ) {}

  @Public()
  @CriticalRateLimit()
  @TurnstileProtected()
  @Get('verification')
  async sendCode(@Query() query: EmailQueryDto): Promise<ApiResult<null>> {
    await this.emailVerification.sendCode(query.email);
    return new ApiResult(null, 'email.code_sent');
  }

  @Public()
  @CriticalRateLimit()
  @TurnstileProtected()
  @Get('reset_password')
  async requestReset(@Query() query: EmailQueryDto): Promise<ApiResult<null>> {
    await this.passwordReset.requestReset(query.email);
    return new ApiResult(null, 'reset.mail_sent');
  }

  @Public()
  @CriticalRateLimit()
  @Post('user/reset')
  async confirmReset(@Body() dto: ConfirmResetDto): Promise<ApiResult<string>> {
    return new ApiResult(await this.passwordReset.confirmReset(dto.email, dto.token), 'reset.done');
  }
}
