import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { BlockList, isIP } from 'node:net';
import { Repository } from 'typeorm';
import { CACHE_NAMES } from '../../../common/cache/cache-names';
import { CacheSyncService } from '../../../common/cache/cache-sync.service';
import { TokenEntity } from '../../tokens/entities/token.entity';
import { KeyedCache } from './keyed-cache';

/** A token as authentication needs it. remainQuota is kept in step with our own billing. */
export interface CachedToken {
  id: number;
  userId: number;
  name: string;
  status: number;
  expiredTime: number;
  remainQuota: number;
  unlimitedQuota: boolean;
  /** Null when the token may use every model. */
  modelLimits: Set<string> | null;
  /** Null when every address may use the token. */
  allowedIps: BlockList | null;
  group: string;
}

/** API tokens by key (without sk-), loaded on first use; cache name 'tokens', key = token key. */
@Injectable()
export class TokenCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: KeyedCache<CachedToken>;
  private unsubscribe?: () => void;

  constructor(
    @InjectRepository(TokenEntity) private readonly repository: Repository<TokenEntity>,
    private readonly cacheSync: CacheSyncService,
  ) {
    this.cache = new KeyedCache((key) => this.loadToken(key));
  }

  onModuleInit(): void {
    this.unsubscribe = this.cacheSync.subscribe(CACHE_NAMES.tokens, (key) => this.cache.invalidate(key));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  get(key: string): Promise<CachedToken | null> {
    return this.cache.get(key);
  }

  /** Applies our own quota change to the cached copy (the database is changed by billing). */
  adjustRemainQuota(key: string, delta: number): void {
    const token = this.cache.peek(key);
    if (token) token.remainQuota += delta;
  }

  private async loadToken(key: string): Promise<CachedToken | null> {
    const row = await this.repository.findOneBy({ key });
    return row ? toCachedToken(row) : null;
  }
}

function toCachedToken(row: TokenEntity): CachedToken {
  const limits = (row.model_limits ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    status: row.status,
    expiredTime: row.expired_time,
    remainQuota: row.remain_quota,
    unlimitedQuota: Boolean(row.unlimited_quota),
    modelLimits: row.model_limits_enabled ? new Set(limits) : null,
    allowedIps: parseAllowedIps(row.allow_ips),
    group: row.group ?? '',
  };
}

/** One IP or CIDR per line (commas tolerated); invalid lines are ignored rather than locking everyone out. */
export function parseAllowedIps(text: string | null): BlockList | null {
  const lines = (text ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const list = new BlockList();
  for (const line of lines) {
    const [address, prefix] = line.split('/');
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else if (/^\d+$/.test(prefix)) list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

export function ipAllowed(list: BlockList, ip: string): boolean {
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}
