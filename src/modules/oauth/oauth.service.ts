import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { AuthService, SignInStep } from '../auth/auth.service';
import { sessionClient } from '../sessions/session-cookie';
import { OptionsService } from '../options/options.service';
import { OAuthAccountsService } from './oauth-accounts.service';
import { OAuthStateService } from './oauth-state.service';
import { ExternalIdentity, RedirectProviderName } from './providers/external-identity';
import { GitHubProvider } from './providers/github.provider';
import { LinuxDoProvider } from './providers/linuxdo.provider';
import { OidcProvider } from './providers/oidc.provider';
import { TelegramLoginFields, TelegramProvider } from './providers/telegram.provider';
import { WeChatProvider } from './providers/wechat.provider';

/** The caller of a sign-in endpoint: who is signed in already (to bind), and the browser's state cookie. */
export interface SignInContext {
  request: Request;
  signedInUserId?: number;
  sessionId?: string;
  stateCookie?: string;
}

/** What the provider's redirect brought back to the callback page. */
export interface ProviderAnswer {
  code: string;
  state?: string;
  iss?: string;
}

/** A sign-in started a session, waits for the second factor, or bound the identity to the signed-in account. */
export type SignInOutcome = SignInStep | { kind: 'bound' };

const PROVIDER_LABELS: Record<RedirectProviderName, string> = { github: 'GitHub', oidc: 'OIDC', linuxdo: 'LinuxDO' };

/** Third-party sign-in: checks the state, trades the code with the provider, then signs in, signs up or binds. */
@Injectable()
export class OAuthService {
  constructor(
    private readonly state: OAuthStateService,
    private readonly accounts: OAuthAccountsService,
    private readonly auth: AuthService,
    private readonly options: OptionsService,
    private readonly github: GitHubProvider,
    private readonly oidc: OidcProvider,
    private readonly linuxDo: LinuxDoProvider,
    private readonly wechat: WeChatProvider,
    private readonly telegram: TelegramProvider,
  ) {}

  createState(affCode: string | undefined, stateCookie: string | undefined): Promise<{ state: string; browser: string }> {
    return this.state.create(affCode, stateCookie);
  }

  oidcAuthorizationUrl(state: string, request: Request): Promise<string> {
    this.assertEnabled('oidc');
    return this.oidc.authorizationUrl(state, this.redirectUri(request, 'oidc'));
  }

  /** GET /api/oauth/{github|oidc|linuxdo}: the callback page hands over code and state. */
  async redirectCallback(provider: string, answer: ProviderAnswer, context: SignInContext): Promise<SignInOutcome> {
    if (!isRedirectProvider(provider)) throw new AppError('common.not_found');
    this.assertEnabled(provider);
    const { affCode } = await this.state.consume(answer.state, context.stateCookie);
    const identity = await this.exchange(provider, answer, context.request);
    return this.finish(identity, affCode, context);
  }

  async wechatSignIn(code: string, context: SignInContext): Promise<SignInOutcome> {
    if (!this.wechat.enabled()) throw new AppError('oauth.provider_disabled', { provider: 'WeChat' });
    return this.finish(await this.wechat.exchange(code), '', context);
  }

  async telegramSignIn(fields: TelegramLoginFields, context: SignInContext): Promise<SignInOutcome> {
    if (!this.telegram.enabled()) throw new AppError('oauth.provider_disabled', { provider: 'Telegram' });
    return this.finish(this.telegram.verify(fields), '', context);
  }

  bindEmail(userId: number, email: string, code: string): Promise<void> {
    return this.accounts.bindEmail(userId, email, code);
  }

  private async finish(identity: ExternalIdentity, affCode: string, context: SignInContext): Promise<SignInOutcome> {
    if (context.signedInUserId !== undefined) {
      await this.accounts.bind(context.signedInUserId, identity);
      return { kind: 'bound' };
    }
    const user = await this.accounts.signIn(identity, affCode);
    const client = { ...sessionClient(context.request), previousSessionId: context.sessionId };
    return this.auth.afterFirstFactor(user, { userId: user.id, requirePasswordChange: false }, client);
  }

  private exchange(provider: RedirectProviderName, answer: ProviderAnswer, request: Request): Promise<ExternalIdentity> {
    switch (provider) {
      case 'github':
        return this.github.exchange(answer.code);
      case 'linuxdo':
        return this.linuxDo.exchange(answer.code);
      case 'oidc':
        return this.oidc.exchange(answer, this.redirectUri(request, 'oidc'));
    }
  }

  private assertEnabled(provider: RedirectProviderName): void {
    const enabled = { github: this.github, oidc: this.oidc, linuxdo: this.linuxDo }[provider].enabled();
    if (!enabled) throw new AppError('oauth.provider_disabled', { provider: PROVIDER_LABELS[provider] });
  }

  /**
   * The console's callback page. The configured public address when set; otherwise the
   * address the browser used, which is safe here because the provider only redirects to
   * addresses registered with it.
   */
  private redirectUri(request: Request, provider: RedirectProviderName): string {
    const base = this.options.get('ServerAddress') || `${request.protocol}://${request.get('host')}`;
    return `${base}/oauth/${provider}`;
  }
}

function isRedirectProvider(provider: string): provider is RedirectProviderName {
  return provider === 'github' || provider === 'oidc' || provider === 'linuxdo';
}
