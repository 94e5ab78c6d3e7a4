import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { OptionsModule } from '../options/options.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TurnstileModule } from '../turnstile/turnstile.module';
import { UsersModule } from '../users/users.module';
import { EmailVerificationService } from './email-verification.service';
import { OneTimeCodeEntity } from './entities/one-time-code.entity';
import { OneTimeCodesService } from './one-time-codes.service';
import { PasswordResetService } from './password-reset.service';
import { VerificationController } from './verification.controller';
import { VerificationJobs } from './verification.jobs';

/** Single-use codes: email verification, password reset, and the OAuth states kept in the same table. */
@Module({
  imports: [TypeOrmModule.forFeature([OneTimeCodeEntity]), MailModule, OptionsModule, SessionsModule, UsersModule, TurnstileModule],
  controllers: [VerificationController],
  providers: [OneTimeCodesService, EmailVerificationService, PasswordResetService, VerificationJobs],
  exports: [OneTimeCodesService, EmailVerificationService],
})
export class VerificationModule {}
