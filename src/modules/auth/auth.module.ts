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

@Module({
  imports: [BillingModule, SessionsModule, UsersModule, OptionsModule, SystemModule],
  controllers: [AuthController],
  providers: [AuthService, { provide: APP_GUARD, useClass: AuthGuard }],
})
export class AuthModule {}
