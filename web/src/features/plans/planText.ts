import type { TFunction } from 'i18next';
import { renderQuota } from '../../lib/quota';
import type { Plan } from './api';

/** A plan's allowance in words, one line each: the total (if any) and every window. */
export function planWindowsText(plan: Pick<Plan, 'total_quota' | 'budget_windows'>, t: TFunction): string {
  const lines = plan.budget_windows.map((window) => t('plans:windowLine', { period: t(`budget:periods.${window.period}`), quota: renderQuota(window.quota) }));
  if (plan.total_quota > 0) lines.unshift(t('plans:totalLine', { quota: renderQuota(plan.total_quota) }));
  return lines.length > 0 ? lines.join('\n') : t('plans:unbounded');
}
