// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.
import type { BudgetUsage, BudgetWindow } from '../billing/budget.wire';

/** What any answer may say about a user: never the password hash or the access token. */
export interface UserView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  /** JSON text of {@link UserSetting}. */
  setting: string;
  remark: string;
  created_time: number;
  DeletedAt: string | null;
  /** Set by an administrator; the user sees them on their own account. */
  budget_windows: BudgetWindow[];
  /** Read-only: each window's use and reset. */
  budget_usage: BudgetUsage[];
  /** Requests per minute over all the user's tokens; 0 means none. */
  rpm_limit: number;
  tpm_limit: number;
}

export interface UserSetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

/** A group the user may pick for tokens, keyed by name in GET /api/user/self/groups. */
export interface GroupChoice {
  desc: string;
  ratio: number;
}
