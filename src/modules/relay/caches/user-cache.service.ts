import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CACHE_NAMES } from '../../../common/cache/cache-names';
import { CacheSyncService } from '../../../common/cache/cache-sync.service';
import { RawSql } from '../../../database/raw-sql';
import { parseBudgetWindows } from '../../billing/budget-periods';
import { BudgetClock } from '../../billing/budget-window.service';
import { SUBSCRIPTION_STATUS_ACTIVE } from '../../plans/entities/subscription.entity';
import { parseModels } from '../../plans/plan.view';
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
  /** The subscriptions active when the user was loaded, the soonest to expire first: the order calls draw on them. */
  subscriptions: CachedSubscription[];
}

/** A subscription as the relay needs it: what it covers. Its allowance and expiry are checked by the hold itself. */
export interface CachedSubscription {
  id: number;
  expiresAt: number;
  /** '' for every group. */
  group: string;
  /** Null for every model. */
  models: ReadonlySet<string> | null;
  windows: BudgetWindow[] | null;
  allowWalletFallback: boolean;
}

interface SubscriptionRow {
  id: number | string;
  expires_at: number | string;
  group: string;
  models: string | null;
  budget_windows: string | null;
  allow_wallet_fallback: number | boolean | string;
}

/** Users by id, loaded on first use; cache name 'users', key = user id. */
@Injectable()
export class UserCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: KeyedCache<CachedUser>;
  private unsubscribe?: () => void;

  constructor(
    @InjectRepository(UserEntity) private readonly repository: Repository<UserEntity>,
    private readonly cacheSync: CacheSyncService,
    private readonly sql: RawSql,
    private readonly clock: BudgetClock,
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
      subscriptions: await this.activeSubscriptions(id),
    };
  }

  /** Loaded with the user; a purchase or renewal invalidates the user, and expiry is checked again at each call. */
  private async activeSubscriptions(userId: number): Promise<CachedSubscription[]> {
    const rows = await this.sql.select<SubscriptionRow>(
      'SELECT id, expires_at, ' + this.sql.quote('group') + ', models, budget_windows, allow_wallet_fallback FROM subscriptions WHERE user_id = ? AND status = ? AND expires_at > ? ORDER BY expires_at, id',
      [userId, SUBSCRIPTION_STATUS_ACTIVE, this.clock.nowSeconds()],
    );
    return rows.map((row) => {
      const models = parseModels(row.models);
      return {
        id: Number(row.id),
        expiresAt: Number(row.expires_at),
        group: row.group ?? '',
        models: models ? new Set(models) : null,
        windows: parseBudgetWindows(row.budget_windows),
        allowWalletFallback: row.allow_wallet_fallback === true || Number(row.allow_wallet_fallback) === 1,
      };
    });
  }
}
