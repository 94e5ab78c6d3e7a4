import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CACHE_NAMES } from '../../../common/cache/cache-names';
import { CacheSyncService } from '../../../common/cache/cache-sync.service';
import { parseBudgetWindows } from '../../billing/budget-periods';
import type { BudgetWindow } from '../../billing/budget.wire';
import { UserEntity } from '../../users/entities/user.entity';
import { KeyedCache } from './keyed-cache';
import { parseJsonObject } from './json-setting';

/** A user as the relay needs it. quota is kept in step with our own billing. */
export interface CachedUser {
  id: number;
  username: string;
  status: number;
  role: number;
  group: string;
  quota: number;
  deleted: boolean;
  /** The user's setting accept_unset_model_ratio_model: may use models without a price. */
  acceptUnsetModelRatio: boolean;
  /** Null when no budget window is set. */
  budgetWindows: BudgetWindow[] | null;
  /** 0: no limit. */
  rpmLimit: number;
  tpmLimit: number;
}

/** Users by id, loaded on first use; cache name 'users', key = user id. */
@Injectable()
export class UserCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: KeyedCache<CachedUser>;
  private unsubscribe?: () => void;

  constructor(
    @InjectRepository(UserEntity) private readonly repository: Repository<UserEntity>,
    private readonly cacheSync: CacheSyncService,
  ) {
    this.cache = new KeyedCache((key) => this.loadUser(Number(key)));
  }

  onModuleInit(): void {
    this.unsubscribe = this.cacheSync.subscribe(CACHE_NAMES.users, (key) => this.cache.invalidate(key));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  get(id: number): Promise<CachedUser | null> {
    return this.cache.get(String(id));
  }

  adjustQuota(id: number, delta: number): void {
    const user = this.cache.peek(String(id));
    if (user) user.quota += delta;
  }

  private async loadUser(id: number): Promise<CachedUser | null> {
    if (!Number.isInteger(id) || id <= 0) return null;
    const row = await this.repository.findOne({ where: { id }, withDeleted: true });
    if (!row) return null;
    const setting = parseJsonObject<{ accept_unset_model_ratio_model?: unknown }>(row.setting);
    return {
      id: row.id,
      username: row.username,
      status: row.status,
      role: row.role,
      group: row.group || 'default',
      quota: row.quota,
      deleted: row.deleted_at !== null && row.deleted_at !== undefined,
      acceptUnsetModelRatio: setting.accept_unset_model_ratio_model === true,
      budgetWindows: parseBudgetWindows(row.budget_windows),
      rpmLimit: row.rpm_limit ?? 0,
      tpmLimit: row.tpm_limit ?? 0,
    };
  }
}
