import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { clientIp, hopTrust, type HopTrust } from '../../common/http/client-ip';
import { readCookie } from '../../common/http/cookies';
import { OptionsService } from '../options/options.service';
import { SESSION_COOKIE, SessionsService } from '../sessions/sessions.service';
import { mayUseGroup } from '../users/usable-groups';
import { UserCacheService } from './caches/user-cache.service';
import { RelayError } from './relay-error';
import type { RelayCaller } from './relay-caller';
import { checkUserActive } from './token-auth.service';

/**
 * The playground (/pg) is used from the console: the session cookie and New-Api-User name the
 * user, who is billed directly (token id 0). The group is the body's `group` when the user may
 * use it, else the user's own.
 */
@Injectable()
export class PlaygroundAuthService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UserCacheService,
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trustedHop = hopTrust(config.trustProxy);
  }

  private readonly trustedHop: HopTrust;

  async authenticate(request: IncomingMessage): Promise<RelayCaller> {
    const session = await this.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    if (!session) throw new RelayError('invalid_api_key', 'Not signed in or the session has expired', 401);
    const claimed = request.headers['new-api-user'];
    if (String(claimed ?? '') !== String(session.userId)) throw new RelayError('invalid_api_key', 'New-Api-User does not match the signed-in user', 401);
    const user = await this.users.get(session.userId);
    checkUserActive(user);
    return { user, token: null, tokenKey: '', group: user.group, ip: clientIp(request, this.trustedHop) };
  }

  /** The group asked for in the body, if the user may use it. */
  chooseGroup(caller: RelayCaller, requested: unknown): string {
    if (typeof requested !== 'string' || requested === '') return caller.user.group;
    if (!mayUseGroup(this.options, caller.user.group, requested)) {
      throw new RelayError('group_not_allowed', `The group ${requested} is not available to you`, 403);
    }
    return requested;
  }
}
