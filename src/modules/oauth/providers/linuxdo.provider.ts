import { Inject, Injectable } from '@nestjs/common';
import type { Profile } from 'passport';
import { InternalOAuthError, Strategy as OAuth2Strategy, StrategyOptions, VerifyFunction } from 'passport-oauth2';
import { AppError } from '../../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { OptionsService } from '../../options/options.service';
import { ExternalIdentity } from './external-identity';
import { exchangeCodeForProfile, takeProfile } from './passport-exchange';

/** The user record of LinuxDO Connect's `/api/user`. */
interface LinuxDoUser {
  id: number;
  username: string;
  name?: string;
  active?: boolean;
}

/** LinuxDO Connect is plain OAuth2; its profile comes from `/api/user`. */
class LinuxDoStrategy extends OAuth2Strategy {
  constructor(
    options: StrategyOptions,
    verify: VerifyFunction,
    private readonly userUrl: string,
  ) {
    super(options, verify);
    this._oauth2.useAuthorizationHeaderforGET(true);
  }

  override userProfile(accessToken: string, done: (error: unknown, profile?: Profile) => void): void {
    this._oauth2.get(this.userUrl, accessToken, (error, body) => {
      if (error) return done(new InternalOAuthError('Failed to fetch the LinuxDO user', error));
      try {
        const user = JSON.parse(String(body)) as LinuxDoUser;
        if (user.id === undefined || user.id === null) return done(new Error('LinuxDO answered without a user id'));
        done(null, { provider: 'linuxdo', id: String(user.id), username: user.username, displayName: user.name || user.username, _json: user } as Profile);
      } catch (parseError) {
        done(parseError);
      }
    });
  }
}

@Injectable()
export class LinuxDoProvider {
  constructor(
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  enabled(): boolean {
    return this.options.get('LinuxDOOAuthEnabled');
  }

  async exchange(code: string): Promise<ExternalIdentity> {
    const base = this.config.externalServices.linuxDoUrl;
    const strategy = new LinuxDoStrategy(
      {
        clientID: this.options.get('LinuxDOClientId'),
        clientSecret: this.options.get('LinuxDOClientSecret'),
        authorizationURL: `${base}/oauth2/authorize`,
        tokenURL: `${base}/oauth2/token`,
      },
      takeProfile,
      `${base}/api/user`,
    );
    const profile = await exchangeCodeForProfile(strategy, code, 'LinuxDO');
    const user = (profile as Profile & { _json: LinuxDoUser })._json;
    if (user.active === false) throw new AppError('oauth.provider_account_inactive', { provider: 'LinuxDO' });
    return { column: 'linux_do_id', id: profile.id, displayName: profile.displayName, email: '' };
  }
}
