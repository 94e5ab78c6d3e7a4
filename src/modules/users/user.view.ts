import { parseBudgetWindows } from '../billing/budget-periods';
import type { BudgetUsage } from '../billing/budget.wire';
import { UserEntity } from './entities/user.entity';
import { UserView } from './user.wire';

/** The user's notification settings without the webhook secret, which only its owner may read. */
function settingForAdmins(raw: string | null): string {
  if (!raw) return '';
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    if (typeof parsed !== 'object' || parsed === null) return '';
    delete parsed.webhook_secret;
    return JSON.stringify(parsed);
  } catch {
    return '';
  }
}

/** `owner` for the user's own account (personal page); anything an admin reads is `admin`. */
/** `usage`: the budget windows' state (BudgetWindowService.usage); none when no window is set. */
export function toUserView(user: UserEntity, audience: 'owner' | 'admin' = 'admin', usage: BudgetUsage[] = []): UserView {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    email: user.email,
    github_id: user.github_id,
    oidc_id: user.oidc_id,
    wechat_id: user.wechat_id,
    telegram_id: user.telegram_id,
    linux_do_id: user.linux_do_id,
    quota: user.quota,
    used_quota: user.used_quota,
    request_count: user.request_count,
    group: user.group,
    aff_code: user.aff_code,
    aff_count: user.aff_count,
    aff_quota: user.aff_quota,
    aff_history_quota: user.aff_history_quota,
    inviter_id: user.inviter_id,
    setting: audience === 'owner' ? (user.setting ?? '') : settingForAdmins(user.setting),
    remark: user.remark,
    created_time: user.created_time,
    DeletedAt: user.deleted_at ? user.deleted_at.toISOString() : null,
    budget_windows: parseBudgetWindows(user.budget_windows) ?? [],
    budget_usage: usage,
    rpm_limit: user.rpm_limit ?? 0,
    tpm_limit: user.tpm_limit ?? 0,
  };
}
