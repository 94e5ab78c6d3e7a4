import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { OptionsService } from '../options/options.service';
import { TokenEntity } from '../tokens/entities/token.entity';
import { UserEntity } from '../users/entities/user.entity';
import type { RelayCaller } from './relay-caller';

/** What chat clients that show a balance read, in OpenAI's old billing shapes. */
export interface BillingSubscription {
  object: 'billing_subscription';
  has_payment_method: boolean;
  soft_limit_usd: number;
  hard_limit_usd: number;
  system_hard_limit_usd: number;
  access_until: number;
}

export interface BillingUsage {
  object: 'list';
  /** Cents, as OpenAI reported it. */
  total_usage: number;
}

/** Shown as the limit of an unlimited token (new-api shows the same). */
const UNLIMITED_AMOUNT = 100_000_000;

/**
 * GET /dashboard/billing/subscription and /usage (and their /v1 forms), as one-api and
 * new-api answer them: the token's figures when DisplayTokenStatEnabled, else the user's; in
 * dollars when DisplayInCurrencyEnabled, else in quota units. Off the relay's hot path, so it
 * reads the database (used quota is not cached).
 */
@Injectable()
export class BillingDashboardService {
  constructor(
    @InjectRepository(TokenEntity) private readonly tokens: Repository<TokenEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly options: OptionsService,
  ) {}

  async subscription(caller: RelayCaller): Promise<BillingSubscription> {
    const figures = await this.figures(caller);
    const amount = figures.unlimited ? UNLIMITED_AMOUNT : this.amount(figures.remain + figures.used);
    return { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: amount, hard_limit_usd: amount, system_hard_limit_usd: amount, access_until: Math.max(0, figures.expires) };
  }

  async usage(caller: RelayCaller): Promise<BillingUsage> {
    const figures = await this.figures(caller);
    return { object: 'list', total_usage: this.amount(figures.used) * 100 };
  }

  private amount(quota: number): number {
    return this.options.get('DisplayInCurrencyEnabled') ? quota / this.options.get('QuotaPerUnit') : quota;
  }

  private async figures(caller: RelayCaller): Promise<{ remain: number; used: number; unlimited: boolean; expires: number }> {
    if (caller.token && this.options.get('DisplayTokenStatEnabled')) {
      const token = await this.tokens.findOne({ where: { id: caller.token.id }, select: { remain_quota: true, used_quota: true, unlimited_quota: true, expired_time: true } });
      return { remain: Number(token?.remain_quota ?? 0), used: Number(token?.used_quota ?? 0), unlimited: Boolean(token?.unlimited_quota), expires: Number(token?.expired_time ?? 0) };
    }
    const user = await this.users.findOne({ where: { id: caller.user.id }, select: { quota: true, used_quota: true } });
    return { remain: Number(user?.quota ?? 0), used: Number(user?.used_quota ?? 0), unlimited: false, expires: 0 };
  }
}
