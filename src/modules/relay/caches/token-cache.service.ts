import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { BlockList, isIP } from 'node:net';
import { Repository } from 'typeorm';
import { CACHE_NAMES } from '../../../common/cache/cache-names';
import { SECRET_BOX, SecretBox } from '../../../common/crypto/secret-box';
import { CacheSyncService } from '../../../common/cache/cache-sync.service';
import { parseBudgetWindows } from '../../billing/budget-periods';
import type { BudgetWindow } from '../../billing/budget.wire';
import { TokenEntity } from '../../tokens/entities/token.entity';
import { splitModelFallbacks } from '../../tokens/token.view';
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
  /** Null when no budget window is set. */
  budgetWindows: BudgetWindow[] | null;
  /** 0: no limit. */
  rpmLimit: number;
  tpmLimit: number;
  /** The token's own fallback chain; null when the ModelFallbacks setting applies. */
  modelFallbacks: string[] | null;
  /** The response cache answers this token's repeated calls (response-cache/). */
  responseCache: boolean;
  /** ...including chats sampled above temperature 0. */
  responseCacheNondeterministic: boolean;
}

/**
 * API tokens by key (without sk-), loaded on first use. Invalidations (cache name 'tokens')
 * name a token by its keyed hash, so no key in the clear crosses Redis; the hashes of the
 * keys loaded here map back to them.
 */
const MAX_TRACKED_KEYS = 100_000;

@Injectable()
export class TokenCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: KeyedCache<CachedToken>;
  private unsubscribe?: () => void;
  private readonly keyByHash = new Map<string, string>();

  constructor(
    @InjectRepository(TokenEntity) private readonly repository: Repository<TokenEntity>,
    private readonly cacheSync: CacheSyncService,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
  ) {
    this.cache = new KeyedCache((key) => this.loadToken(key));
  }

  onModuleInit(): void {
    this.unsubscribe = this.cacheSync.subscribe(CACHE_NAMES.tokens, (keyHash) => this.invalidate(keyHash));
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

  private invalidate(keyHash: string | undefined): void {
    if (keyHash === undefined) {
      this.keyByHash.clear();
      return this.cache.invalidate();
    }
    const key = this.keyByHash.get(keyHash);
    if (key !== undefined) this.cache.invalidate(key);
  }

  /** Only on a cache miss: keys are stored encrypted, and found by their keyed hash. */
  private async loadToken(key: string): Promise<CachedToken | null> {
    const keyHash = this.secretBox.keyedHash(key);
    // Bounded like the cache (unknown keys are remembered too): past it, start both afresh.
    if (this.keyByHash.size >= MAX_TRACKED_KEYS) this.invalidate(undefined);
    this.keyByHash.set(keyHash, key);
    const row = await this.repository.findOneBy({ key_hash: keyHash });
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
    budgetWindows: parseBudgetWindows(row.budget_windows),
    rpmLimit: row.rpm_limit ?? 0,
    tpmLimit: row.tpm_limit ?? 0,
    modelFallbacks: row.model_fallbacks ? splitModelFallbacks(row.model_fallbacks) : null,
    responseCache: Boolean(row.response_cache),
    responseCacheNondeterministic: Boolean(row.response_cache_nondeterministic),
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
