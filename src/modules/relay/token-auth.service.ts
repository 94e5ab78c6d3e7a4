import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { clientIp, hopTrust, type HopTrust } from '../../common/http/client-ip';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OptionsService } from '../options/options.service';
import { TOKEN_STATUS_DISABLED, TOKEN_STATUS_ENABLED, TOKEN_STATUS_EXHAUSTED, TOKEN_STATUS_EXPIRED } from '../tokens/entities/token.entity';
import { USER_STATUS_ENABLED } from '../users/entities/user.entity';
import { CachedToken, ipAllowed, TokenCacheService } from './caches/token-cache.service';
import { CachedUser, UserCacheService } from './caches/user-cache.service';
import { mayUseGroup } from '../users/usable-groups';
import { RelayError } from './relay-error';
import type { RelayCaller } from './relay-caller';

/**
 * Authenticates `Authorization: Bearer sk-…` from memory: the token, its status, expiry,
 * remaining quota, allowed addresses, its user, and the group it runs in.
 */
@Injectable()
export class TokenAuthService {
  constructor(
    private readonly tokens: TokenCacheService,
    private readonly users: UserCacheService,
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trustedHop = hopTrust(config.trustProxy);
  }

  private readonly trustedHop: HopTrust;

  async authenticate(request: IncomingMessage): Promise<RelayCaller> {
    const key = tokenKeyFrom(request.headers.authorization) ?? plainKey(request.headers['x-api-key'] ?? request.headers['x-goog-api-key']) ?? queryKey(request.url);
    if (!key) throw new RelayError('invalid_api_key', 'No API key provided: send Authorization: Bearer sk-… (or x-api-key)', 401);
    const token = await this.tokens.get(key);
    if (!token) throw new RelayError('invalid_api_key', 'Invalid API key', 401);
    checkTokenUsable(token);
    const ip = clientIp(request, this.trustedHop);
    if (token.allowedIps && !ipAllowed(token.allowedIps, ip)) throw new RelayError('ip_not_allowed', `This API key may not be used from ${ip}`, 403);
    const user = await this.users.get(token.userId);
    checkUserActive(user);
    const group = token.group || user.group;
    if (!mayUseGroup(this.options, user.group, group)) {
      throw new RelayError('group_not_allowed', `The group ${group} of this API key is not available to its user`, 403);
    }
    return { user, token, tokenKey: key, group, ip };
  }
}

/** The key after `Bearer ` and `sk-`; a `-suffix` some clients append is not part of it. */
function tokenKeyFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? plainKey(match[1]) : undefined;
}

/** Google's clients may send the key as ?key=. */
function queryKey(url: string | undefined): string | undefined {
  if (!url || !url.includes('key=')) return undefined;
  return plainKey(new URL(url, 'http://relay').searchParams.get('key') ?? undefined);
}

/** A key as Claude and Google clients send it (x-api-key, x-goog-api-key, ?key=): without sk- and a -suffix. */
export function plainKey(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const key = value.trim().startsWith('sk-') ? value.trim().slice(3) : value.trim();
  return key.split('-')[0] || undefined;
}

function checkTokenUsable(token: CachedToken): void {
  if (token.status === TOKEN_STATUS_DISABLED) throw new RelayError('token_disabled', 'This API key is disabled', 401);
  const expired = token.status === TOKEN_STATUS_EXPIRED || (token.expiredTime !== -1 && token.expiredTime <= Math.floor(Date.now() / 1000));
  if (expired) throw new RelayError('token_expired', 'This API key has expired', 401);
  if (token.status === TOKEN_STATUS_EXHAUSTED || (!token.unlimitedQuota && token.remainQuota <= 0)) {
    throw new RelayError('token_quota_exhausted', 'This API key has used up its quota', 403);
  }
  if (token.status !== TOKEN_STATUS_ENABLED) throw new RelayError('token_disabled', 'This API key is not enabled', 401);
}

export function checkUserActive(user: CachedUser | null): asserts user is CachedUser {
  if (!user || user.deleted) throw new RelayError('user_banned', 'The owner of this API key no longer exists', 401);
  if (user.status !== USER_STATUS_ENABLED) throw new RelayError('user_banned', 'The owner of this API key is banned', 403);
}

/** Model limits of the token (the playground has none). */
export function checkModelAllowed(caller: RelayCaller, model: string): void {
  const limits = caller.token?.modelLimits;
  if (limits && !limits.has(model)) throw new RelayError('model_not_allowed', `This API key may not use the model ${model}`, 403);
}
