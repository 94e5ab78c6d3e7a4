// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.
import type { BudgetUsage, BudgetWindow } from '../billing/budget.wire';

/** A token as its owner sees it; the key carries the `sk-` prefix clients send. */
export interface TokenView {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  /** Unix seconds, or -1 for never. */
  expired_time: number;
  model_limits_enabled: boolean;
  /** Comma-separated model names. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  group: string;
  created_time: number;
  accessed_time: number;
  budget_windows: BudgetWindow[];
  /** Read-only: each window's use and reset. */
  budget_usage: BudgetUsage[];
  /** Requests per minute; 0 means none. */
  rpm_limit: number;
  /** Prompt plus completion tokens per minute; 0 means none. */
  tpm_limit: number;
  /**
   * Models tried in order when every channel of the requested model failed with a fault that
   * is not the client's; replaces the ModelFallbacks setting for this token. Empty: the setting.
   */
  model_fallbacks: string[];
  /** The response cache answers repeated identical calls of this token (chats only at temperature 0). */
  response_cache: boolean;
  /** Chats above temperature 0, or without one, are cached too. */
  response_cache_nondeterministic: boolean;
}
