import { Body, Controller, Get, Post } from '@nestjs/common';
import { AllowedBeforeTwoFactorEnrolment, AuthenticatedUser, CriticalRateLimit, CurrentUser, RootOnly } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { ResetTwoFactorDto, TwoFactorCodeDto } from './dto/two-factor.dto';
import { TwoFactorService } from './two-factor.service';
import type { RecoveryCodesView, TwoFactorSetupView, TwoFactorStatusView } from './two-factor.wire';

/** The personal page's two-factor section, and root's reset. */
@Controller('api/user/2fa')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @AllowedBeforeTwoFactorEnrolment()
  @Get('status')
  status(@CurrentUser() user: AuthenticatedUser): Promise<TwoFactorStatusView> {
    return this.twoFactor.status(user);
  }

  @AllowedBeforeTwoFactorEnrolment()
  @Post('setup')
  setup(@CurrentUser() user: AuthenticatedUser): Promise<TwoFactorSetupView> {
    return this.twoFactor.beginSetup(user);
  }

  @AllowedBeforeTwoFactorEnrolment()
  @CriticalRateLimit()
  @Post('enable')
  async enable(@CurrentUser() user: AuthenticatedUser, @Body() dto: TwoFactorCodeDto): Promise<ApiResult<RecoveryCodesView>> {
    return new ApiResult(await this.twoFactor.confirmSetup(user, dto.code, user.ip ?? ''), 'two_factor.enabled');
  }

  @CriticalRateLimit()
  @Post('disable')
  async disable(@CurrentUser() user: AuthenticatedUser, @Body() dto: TwoFactorCodeDto): Promise<ApiResult<null>> {
    await this.twoFactor.disable(user, dto.code, user.ip ?? '');
    return new ApiResult(null, 'two_factor.disabled');
  }

  @CriticalRateLimit()
  @Post('recovery_codes')
  recoveryCodes(@CurrentUser() user: AuthenticatedUser, @Body() dto: TwoFactorCodeDto): Promise<RecoveryCodesView> {
    return this.twoFactor.regenerateRecoveryCodes(user, dto.code, user.ip ?? '');
  }

  @RootOnly()
  @Post('reset')
  async reset(@CurrentUser() actor: AuthenticatedUser, @Body() dto: ResetTwoFactorDto): Promise<ApiResult<null>> {
    await this.twoFactor.resetByAdmin(actor, dto.user_id);
    return new ApiResult(null, 'two_factor.reset_done');
  }
}
