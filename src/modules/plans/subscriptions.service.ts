import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, MoreThan, Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { AppError } from '../../common/errors/app-error';
import { logText } from '../logs/log-text';
import { Transactions } from '../../database/transactions';
import { parseBudgetWindows } from '../billing/budget-periods';
import { BudgetClock, BudgetWindowService } from '../billing/budget-window.service';
import { LedgerRefusedError, QuotaLedgerService, type LedgerReason } from '../billing/quota-ledger.service';
import { OptionsService } from '../options/options.service';
import { PlanEntity } from './entities/plan.entity';
import { SUBSCRIPTION_STATUS_ACTIVE, SubscriptionEntity } from './entities/subscription.entity';
import { planPriceQuota, toSubscriptionView } from './plan.view';
import type { SubscriptionView } from './plan.wire';
import { PlansService } from './plans.service';

const DAY_SECONDS = 86_400;

/** How a plan was paid for, as its log row says. */
export interface PlanGrant {
  userId: number;
  username: string;
  planId: number;
  /** The exactly-once guard (an order pending → success, a code unused → used); answering false grants nothing. */
  claim: (manager: EntityManager) => Promise<boolean>;
  reason: Extract<LedgerReason, 'plan_purchase' | 'redeem'>;
  /** The log row's `other` besides plan and subscription (the order's trade number, the code's id). */
  source: Record<string, unknown>;
}

/** Buying, renewing and listing subscriptions. Every purchase is a ledger movement with its log row. */
@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectRepository(SubscriptionEntity) private readonly subscriptions: Repository<SubscriptionEntity>,
    private readonly plans: PlansService,
    private readonly ledger: QuotaLedgerService,
    private readonly transactions: Transactions,
    private readonly cacheSync: CacheSyncService,
    private readonly budgets: BudgetWindowService,
    private readonly clock: BudgetClock,
    private readonly options: OptionsService,
  ) {}

  /** A user's subscriptions, newest first, with each window's use. */
  async listOf(userId: number): Promise<SubscriptionView[]> {
    const rows = await this.subscriptions.find({ where: { user_id: userId }, order: { id: 'DESC' } });
    const usage = await this.budgets.usage('sub', rows.map((row) => ({ id: row.id, windows: parseBudgetWindows(row.budget_windows) })));
    const now = this.clock.nowSeconds();
    return rows.map((row) => toSubscriptionView(row, usage.get(row.id) ?? [], now));
  }

  /**
   * Buys the plan (or renews the caller's active subscription of it) from the balance: the
   * grant and the ledger's debit with its log row commit together, or nothing does when the
   * balance does not cover the price.
   */
  async buyWithBalance(actor: AuthenticatedUser, planId: number): Promise<SubscriptionView> {
    const plan = await this.plans.loadEnabled(planId);
    const price = planPriceQuota(plan, this.options.get('QuotaPerUnit'));
    const subscriptionId = await this.transactions.run(async (manager) => {
      const granted = await this.grantInTransaction(manager, actor.id, plan);
      const paid = await this.ledger.applyDelta(
        {
          userId: actor.id,
          username: actor.username,
          reason: 'plan_purchase',
          quota: -price,
          requireCovered: true,
          text: logText(granted.renewed ? 'plan_renewed' : 'plan_bought', { plan: plan.name, quota: price }),
          other: { plan_id: plan.id, subscription_id: granted.id, renewed: granted.renewed, paid_with: 'balance' },
        },
        manager,
      );
      if (!paid) throw new AppError('plan.insufficient_balance');
      return granted.id;
    });
    await this.cacheSync.invalidate(CACHE_NAMES.users, String(actor.id));
    return this.viewOf(subscriptionId);
  }

  /**
   * Grants a plan paid elsewhere (an online order, a redemption code) exactly once: the claim,
   * the grant and the log row (quota 0: the balance does not move) in one transaction. The plan
   * is granted even if disabled since: it was on sale when the order was made or the code minted.
   * Answers false when the claim was already spent.
   */
  async grantClaimed(grant: PlanGrant): Promise<boolean> {
    const granted = await this.transactions.run(async (manager) => {
      if (!(await grant.claim(manager))) return false;
      const plan = await manager.findOneBy(PlanEntity, { id: grant.planId });
      if (!plan) throw new AppError('plan.not_found');
      const subscription = await this.grantInTransaction(manager, grant.userId, plan);
      const logged = await this.ledger.applyDelta(
        {
          userId: grant.userId,
          username: grant.username,
          reason: grant.reason,
          quota: 0,
          text: logText(subscription.renewed ? 'plan_renewed_paid' : 'plan_bought_paid', { plan: plan.name }),
          other: { plan_id: plan.id, subscription_id: subscription.id, renewed: subscription.renewed, ...grant.source },
        },
        manager,
      );
      if (!logged) throw new LedgerRefusedError();
      return true;
    });
    if (granted) await this.cacheSync.invalidate(CACHE_NAMES.users, String(grant.userId));
    return granted;
  }

  /**
   * A new subscription, or the renewal of the user's active one of the same plan: its period is
   * extended by the plan's duration from its current end, and a total allowance grows by the
   * plan's (stays unbounded if either is). Deltas, so two renewals at once both count.
   */
  private async grantInTransaction(manager: EntityManager, userId: number, plan: PlanEntity): Promise<{ id: number; renewed: boolean }> {
    const now = this.clock.nowSeconds();
    const duration = plan.duration_days * DAY_SECONDS;
    const active = await manager.findOne(SubscriptionEntity, {
      where: { user_id: userId, plan_id: plan.id, status: SUBSCRIPTION_STATUS_ACTIVE, expires_at: MoreThan(now) },
      order: { expires_at: 'DESC' },
    });
    if (active) {
      await manager
        .createQueryBuilder()
        .update(SubscriptionEntity)
        .set({
          expires_at: () => 'expires_at + :duration',
          total_quota: () => 'CASE WHEN total_quota = 0 OR :planTotal = 0 THEN 0 ELSE total_quota + :planTotal END',
        })
        .where('id = :id', { id: active.id })
        .setParameters({ duration, planTotal: plan.total_quota })
        .execute();
      return { id: active.id, renewed: true };
    }
    const inserted = await manager.insert(SubscriptionEntity, {
      user_id: userId,
      plan_id: plan.id,
      plan_name: plan.name,
      status: SUBSCRIPTION_STATUS_ACTIVE,
      starts_at: now,
      expires_at: now + duration,
      total_quota: plan.total_quota,
      used: 0,
      budget_windows: plan.budget_windows,
      models: plan.models,
      group: plan.group,
      allow_wallet_fallback: plan.allow_wallet_fallback,
      created_at: now,
    });
    return { id: Number(inserted.identifiers[0].id), renewed: false };
  }

  private async viewOf(id: number): Promise<SubscriptionView> {
    const row = await this.subscriptions.findOneByOrFail({ id });
    const usage = await this.budgets.usage('sub', [{ id, windows: parseBudgetWindows(row.budget_windows) }]);
    return toSubscriptionView(row, usage.get(id) ?? [], this.clock.nowSeconds());
  }
}
