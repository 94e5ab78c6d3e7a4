import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { UsersModule } from '../users/users.module';
import { VerificationModule } from '../verification/verification.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { OAuthAccountsService } from './oauth-accounts.service';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { OAuthStateService } from './oauth-state.service';
import { GitHubProvider } from './providers/github.provider';
import { LinuxDoProvider } from './providers/linuxdo.provider';
import { OidcProvider } from './providers/oidc.provider';
import { TelegramProvider } from './providers/telegram.provider';
import { WeChatProvider } from './providers/wechat.provider';

/** Third-party sign-in and account bindings: GitHub, OIDC, LinuxDO, WeChat, Telegram and email. */
@Module({
  imports: [AuthModule, OptionsModule, OutboundModule, UsersModule, VerificationModule, TwoFactorModule],
  controllers: [OAuthController],
  providers: [OAuthService, OAuthAccountsService, OAuthStateService, GitHubProvider, OidcProvider, LinuxDoProvider, WeChatProvider, TelegramProvider],
})
export class OAuthModule {}
