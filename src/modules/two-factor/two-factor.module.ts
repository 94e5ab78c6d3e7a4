import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { OptionsModule } from '../options/options.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { TwoFactorRecoveryCodeEntity } from './entities/two-factor-recovery-code.entity';
import { UserTwoFactorEntity } from './entities/user-two-factor.entity';
import { SignInChallenges } from './sign-in-challenge';
import { TotpClock } from './totp-clock';
import { TwoFactorController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';

/** TOTP second factor: enrolment, recovery codes, the sign-in challenge, and root's reset. */
@Module({
  imports: [TypeOrmModule.forFeature([UserTwoFactorEntity, TwoFactorRecoveryCodeEntity]), MailModule, OptionsModule, SessionsModule, UsersModule],
  controllers: [TwoFactorController],
  providers: [TwoFactorService, TotpClock, SignInChallenges],
  exports: [TwoFactorService, SignInChallenges],
})
export class TwoFactorModule {}
