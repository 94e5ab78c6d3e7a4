import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import type { BaseClient, CustomHttpOptionsProvider, Issuer } from 'openid-client';
import { AppError } from '../../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { OptionsService } from '../../options/options.service';
import { OutboundGuardService, outboundRefusal, refusalToAppError } from '../../outbound/outbound-guard.service';
import { ExternalIdentity } from './external-identity';

const SCOPE = 'openid profile email';

/**
 * OpenID Connect with openid-client: the provider's metadata from discovery (`oidc.well_known`)
 * or from the three explicit endpoints, the authorization code flow with PKCE, and an
 * id_token checked against the provider's keys, issuer, audience and nonce.
 *
 * The PKCE verifier and the nonce are derived from the state with the server's secret, so
 * nothing but the state needs storing between the redirect and the callback.
 */
@Injectable()
export class OidcProvider implements OnModuleDestroy {
  private readonly logger = new Logger(OidcProvider.name);
  private issuer?: Promise<Issuer>;
  private readonly stopWatching: () => void;

  constructor(
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbound: OutboundGuardService,
  ) {
    this.stopWatching = options.onChange((key) => {
      if (key.startsWith('oidc.')) this.issuer = undefined;
    });
  }

  onModuleDestroy(): void {
    this.stopWatching();
  }

  enabled(): boolean {
    return this.options.get('oidc.enabled');
  }

  /** Where the console sends the browser to sign in, for a state from /api/oauth/state. */
  async authorizationUrl(state: string, redirectUri: string): Promise<string> {
    const client = await this.client(redirectUri);
    const { codeChallenge, nonce } = this.checksFor(state);
    return client.authorizationUrl({ scope: SCOPE, state, nonce, code_challenge: codeChallenge, code_challenge_method: 'S256' });
  }

  async exchange(answer: { code: string; state?: string; iss?: string }, redirectUri: string): Promise<ExternalIdentity> {
    const client = await this.client(redirectUri);
    const state = answer.state ?? '';
    const params = { code: answer.code, state, ...(answer.iss ? { iss: answer.iss } : {}) };
    const { codeVerifier, nonce } = this.checksFor(state);
    let claims: Record<string, unknown>;
    try {
      if (client.issuer.metadata.jwks_uri) {
        const tokens = await client.callback(redirectUri, params, { state, nonce, code_verifier: codeVerifier, response_type: 'code' });
        const idToken = tokens.claims();
        claims = { ...(await client.userinfo(tokens)), ...idToken };
      } else {
        // Explicit endpoints without a key set: the id_token cannot be checked, so only userinfo is trusted.
        const tokens = await client.grant({ grant_type: 'authorization_code', code: answer.code, redirect_uri: redirectUri, code_verifier: codeVerifier });
        claims = await client.userinfo(tokens.access_token ?? '');
      }
    } catch (error) {
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      this.logger.warn(`OIDC code exchange failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new AppError('oauth.exchange_failed', { provider: 'OIDC' });
    }
    const subject = typeof claims.sub === 'string' ? claims.sub : '';
    if (!subject) throw new AppError('oauth.exchange_failed', { provider: 'OIDC' });
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      column: 'oidc_id',
      id: subject,
      displayName: text(claims.name) || text(claims.preferred_username),
      email: claims.email_verified === false ? '' : text(claims.email),
    };
  }

  private checksFor(state: string): { codeVerifier: string; codeChallenge: string; nonce: string } {
    const derive = (purpose: string) => createHmac('sha256', this.config.sessionSecret).update(`${purpose}:${state}`).digest('base64url');
    const codeVerifier = derive('oidc-pkce');
    return { codeVerifier, codeChallenge: sha256Base64Url(codeVerifier), nonce: derive('oidc-nonce') };
  }

  private async client(redirectUri: string): Promise<BaseClient> {
    this.issuer ??= this.loadIssuer().catch((error: unknown) => {
      this.issuer = undefined;
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      this.logger.warn(`OIDC discovery failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new AppError('oauth.oidc_discovery_failed');
    });
    const issuer = await this.issuer;
    const { custom } = await import('openid-client');
    const client = new issuer.Client({
      client_id: this.options.get('oidc.client_id'),
      client_secret: this.options.get('oidc.client_secret'),
      redirect_uris: [redirectUri],
      response_types: ['code'],
    });
    client[custom.http_options] = this.guardedHttp;
    return client;
  }

  /**
   * Every request openid-client sends (discovery, keys, token, userinfo) goes to addresses an
   * admin typed or the provider's metadata named: through the outbound guard, like a channel.
   */
  private readonly guardedHttp: CustomHttpOptionsProvider = (url, options) => ({ ...options, ...this.outbound.httpOptionsFor(url) });

  /** openid-client (and jose under it) loads on the first sign-in: a gateway without OIDC never holds it (issue 32). */
  private async loadIssuer(): Promise<Issuer> {
    const { custom, Issuer } = await import('openid-client');
    const wellKnown = this.options.get('oidc.well_known');
    // discover() is static: a subclass carries the guard for that one request.
    const guardedHttp = this.guardedHttp;
    class GuardedIssuer extends Issuer {
      static override [custom.http_options] = guardedHttp;
    }
    const issuer = wellKnown
      ? await GuardedIssuer.discover(wellKnown)
      : new Issuer({
          issuer: this.options.get('oidc.authorization_endpoint'),
          authorization_endpoint: this.options.get('oidc.authorization_endpoint'),
          token_endpoint: this.options.get('oidc.token_endpoint'),
          userinfo_endpoint: this.options.get('oidc.user_info_endpoint'),
        });
    issuer[custom.http_options] = guardedHttp;
    return issuer;
  }
}

function sha256Base64Url(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
