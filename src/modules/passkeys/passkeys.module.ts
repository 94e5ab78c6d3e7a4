import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { OptionsModule } from '../options/options.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { UsersModule } from '../users/users.module';
import { VerificationModule } from '../verification/verification.module';
import { PasskeyEntity } from './entities/passkey.entity';
import { PasskeyChallenges } from './passkey-challenges';
import { PasskeySignInController } from './passkey-sign-in.controller';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasskeysController } from './passkeys.controller';
import { PasskeysRepository } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';
import { RelyingPartyResolver } from './relying-party';

/** Passkeys (WebAuthn): several per account, for sign-in without a password or as the second step. */
@Module({
  imports: [TypeOrmModule.forFeature([PasskeyEntity]), AuthModule, OptionsModule, TwoFactorModule, UsersModule, VerificationModule],
  controllers: [PasskeysController, PasskeySignInController],
  providers: [PasskeysService, PasskeySignInService, PasskeysRepository, PasskeyChallenges, RelyingPartyResolver],
})
export class PasskeysModule {}
