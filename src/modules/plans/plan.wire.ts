// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.
import type { BudgetUsage, BudgetWindow } from '../billing/budget.wire';

/** A subscription plan as administrators manage it and users see it on the wallet page. */
export interface PlanView {
  id: number;
  name: string;
  /** In units of quota (dollars, as a top-up's amount): Epay charges price × Price, Stripe price × StripeUnitPrice. */
  price: number;
  /** What buying it from the balance takes: price × QuotaPerUnit. */
  price_quota: number;
  duration_days: number;
  /** '' covers calls in any group; otherwise only calls made in this group. */
  group: string;
  /** 0: no total allowance, only the windows bound it. */
  total_quota: number;
  budget_windows: BudgetWindow[];
  /** Null: every model; otherwise only these. */
  models: string[] | null;
  enabled: boolean;
  /** Whether calls the plan cannot cover (allowance or window used up) draw from the wallet. */
  allow_wallet_fallback: boolean;
  created_at: number;
  updated_at: number;
}

/** 'expired' is read from expires_at at the moment of asking: no job moves it. */
export type SubscriptionStatus = 'active' | 'expired' | 'cancelled';

/** A user's subscription: the plan's allowance as bought, its period and its use. */
export interface SubscriptionView {
  id: number;
  user_id: number;
  plan_id: number;
  plan_name: string;
  status: SubscriptionStatus;
  starts_at: number;
  expires_at: number;
  total_quota: number;
  /** The sum of the draws logged with this subscription_id, minus the refunds logged with it (a task that failed after its draw). */
  used: number;
  budget_windows: BudgetWindow[];
  budget_usage: BudgetUsage[];
  models: string[] | null;
  group: string;
  allow_wallet_fallback: boolean;
}

/** Deleting a plan someone bought disables it instead, so their subscriptions keep their history. */
export interface PlanDeletion {
  deleted: boolean;
  disabled: boolean;
}
