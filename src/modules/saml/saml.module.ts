import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { UsersModule } from '../users/users.module';
import { SamlMessageIdEntity } from './entities/saml-message-id.entity';
import { SamlAccountsService } from './saml-accounts.service';
import { SamlIdpService } from './saml-idp.service';
import { SamlMessageIdsRepository } from './saml-message-ids.repository';
import { SamlController } from './saml.controller';
import { SamlJobs } from './saml.jobs';
import { SamlService } from './saml.service';

/** SAML 2.0 sign-in: SP metadata, the login redirect, the ACS, and the accounts it lands in. */
@Module({
  imports: [TypeOrmModule.forFeature([SamlMessageIdEntity]), AuthModule, OptionsModule, OutboundModule, TwoFactorModule, UsersModule],
  controllers: [SamlController],
  providers: [SamlService, SamlIdpService, SamlAccountsService, SamlMessageIdsRepository, SamlJobs],
})
export class SamlModule {}
