import { parseBudgetWindows } from '../billing/budget-periods';
import type { BudgetUsage } from '../billing/budget.wire';
import { TokenEntity } from './entities/token.entity';
import { TokenView } from './token.wire';

export const TOKEN_KEY_PREFIX = 'sk-';

/** The model_fallbacks column as its list (comma-separated, in order). */
export function splitModelFallbacks(column: string | null | undefined): string[] {
  return (column ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);
}

/** A fallback list as its column: trimmed, without repeats or blanks; null when empty. */
export function modelFallbacksColumn(models: readonly string[]): string | null {
  return [...new Set(models.map((model) => model.trim()).filter(Boolean))].join(',') || null;
}

/** `usage`: the windows' state (BudgetWindowService.usage); none when the token has no window. */
export function toTokenView(token: TokenEntity, usage: BudgetUsage[] = []): TokenView {
  return {
    id: token.id,
    user_id: token.user_id,
    name: token.name,
    key: TOKEN_KEY_PREFIX + token.key,
    status: token.status,
    remain_quota: token.remain_quota,
    used_quota: token.used_quota,
    unlimited_quota: token.unlimited_quota,
    expired_time: token.expired_time,
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits ?? '',
    allow_ips: token.allow_ips ?? '',
    group: token.group,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
    budget_windows: parseBudgetWindows(token.budget_windows) ?? [],
    budget_usage: usage,
    rpm_limit: token.rpm_limit ?? 0,
    tpm_limit: token.tpm_limit ?? 0,
    model_fallbacks: splitModelFallbacks(token.model_fallbacks),
    response_cache: Boolean(token.response_cache),
    response_cache_nondeterministic: Boolean(token.response_cache_nondeterministic),
  };
}
