import { parseBudgetWindows } from '../billing/budget-periods';
import type { BudgetUsage } from '../billing/budget.wire';
import { PlanEntity } from './entities/plan.entity';
import { SUBSCRIPTION_STATUS_ACTIVE, SubscriptionEntity } from './entities/subscription.entity';
import type { PlanView, SubscriptionView } from './plan.wire';

export function toPlanView(row: PlanEntity, quotaPerUnit: number): PlanView {
  return {
    id: row.id,
    name: row.name,
    price: row.price_cents / 100,
    price_quota: planPriceQuota(row, quotaPerUnit),
    duration_days: row.duration_days,
    group: row.group,
    total_quota: row.total_quota,
    budget_windows: parseBudgetWindows(row.budget_windows) ?? [],
    models: parseModels(row.models),
    enabled: Boolean(row.enabled),
    allow_wallet_fallback: Boolean(row.allow_wallet_fallback),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toSubscriptionView(row: SubscriptionEntity, usage: BudgetUsage[], now: number): SubscriptionView {
  return {
    id: row.id,
    user_id: row.user_id,
    plan_id: row.plan_id,
    plan_name: row.plan_name,
    status: row.status !== SUBSCRIPTION_STATUS_ACTIVE ? 'cancelled' : row.expires_at > now ? 'active' : 'expired',
    starts_at: row.starts_at,
    expires_at: row.expires_at,
    total_quota: row.total_quota,
    used: row.used,
    budget_windows: parseBudgetWindows(row.budget_windows) ?? [],
    budget_usage: usage,
    models: parseModels(row.models),
    group: row.group,
    allow_wallet_fallback: Boolean(row.allow_wallet_fallback),
  };
}

/** What the plan costs from the balance: its price in units × QuotaPerUnit. */
export function planPriceQuota(plan: PlanEntity, quotaPerUnit: number): number {
  return Math.round((plan.price_cents * quotaPerUnit) / 100);
}

/** A stored model list (JSON), or null for every model; malformed text reads as every model, as only a hand edit writes it. */
export function parseModels(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) && parsed.length > 0 ? parsed.filter((name): name is string => typeof name === 'string') : null;
  } catch {
    return null;
  }
}

/** The stored text of a model list: trimmed names, no repeats; null (every model) when none is left. */
export function modelsText(models: string[] | null | undefined): string | null {
  const names = [...new Set((models ?? []).map((name) => name.trim()).filter(Boolean))];
  return names.length > 0 ? JSON.stringify(names) : null;
}
