import { Inject, Injectable } from '@nestjs/common';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { OptionsService } from '../../options/options.service';
import { ExternalIdentity } from './external-identity';
import { exchangeCodeForProfile, takeProfile } from './passport-exchange';

/** GitHub OAuth app: code → token → /user (and /user/emails for the primary address). */
@Injectable()
export class GitHubProvider {
  constructor(
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  enabled(): boolean {
    return this.options.get('GitHubOAuthEnabled');
  }

  async exchange(code: string): Promise<ExternalIdentity> {
    const { githubOAuthUrl, githubApiUrl } = this.config.externalServices;
    const strategy = new GitHubStrategy(
      {
        clientID: this.options.get('GitHubClientId'),
        clientSecret: this.options.get('GitHubClientSecret'),
        callbackURL: '',
        authorizationURL: `${githubOAuthUrl}/login/oauth/authorize`,
        tokenURL: `${githubOAuthUrl}/login/oauth/access_token`,
        userProfileURL: `${githubApiUrl}/user`,
        userEmailURL: `${githubApiUrl}/user/emails`,
        scope: ['user:email'],
      },
      takeProfile,
    );
    const profile = await exchangeCodeForProfile(strategy, code, 'GitHub');
    return { column: 'github_id', id: String(profile.id), displayName: profile.displayName || profile.username || '', email: profile.emails?.[0]?.value ?? '' };
  }
}
