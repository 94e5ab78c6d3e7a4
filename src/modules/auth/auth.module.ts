import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { OptionsModule } from '../options/options.module';
import { SystemModule } from '../system/system.module';
import { UsersModule } from '../users/users.module';
import { BillingModule } from '../billing/billing.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { SessionsModule } from '../sessions/sessions.module';
import { TurnstileModule } from '../turnstile/turnstile.module';
import { VerificationModule } from '../verification/verification.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';

@Module({
  imports: [BillingModule, SessionsModule, UsersModule, OptionsModule, SystemModule, TurnstileModule, VerificationModule, TwoFactorModule],
  controllers: [AuthController],
  providers: [AuthService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService],
})
export class AuthModule {}
