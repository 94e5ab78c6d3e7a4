import type { BudgetPeriod, BudgetUsage, BudgetWindow } from '@shared/billing/budget.wire';

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['5h', 'day', 'week', 'month'];

/** The budget part of a token or user form: windows and the two limits, as typed. */
export interface BudgetForm {
  windows: Array<{ period: BudgetPeriod; quota: string }>;
  rpm_limit: string;
  tpm_limit: string;
}

/** What a token or user write sends of it. */
export interface BudgetWrite {
  budget_windows: BudgetWindow[];
  rpm_limit: number;
  tpm_limit: number;
}

export function toBudgetForm(view?: { budget_windows: BudgetWindow[]; rpm_limit: number; tpm_limit: number }): BudgetForm {
  return {
    windows: (view?.budget_windows ?? []).map((window) => ({ period: window.period, quota: String(window.quota) })),
    rpm_limit: String(view?.rpm_limit ?? 0),
    tpm_limit: String(view?.tpm_limit ?? 0),
  };
}

export function fromBudgetForm(form: BudgetForm): BudgetWrite {
  return {
    budget_windows: form.windows.map((window) => ({ period: window.period, quota: Number(window.quota.trim()) })),
    rpm_limit: Number(form.rpm_limit.trim() || 0),
    tpm_limit: Number(form.tpm_limit.trim() || 0),
  };
}

const WHOLE = /^\d+$/;

/** An i18n key naming what is wrong, or true. */
export function validateBudget(form: BudgetForm): string | true {
  if (form.windows.some((window) => !WHOLE.test(window.quota.trim()))) return 'budget:validation.quota';
  if (new Set(form.windows.map((window) => window.period)).size !== form.windows.length) return 'budget:validation.duplicate';
  if (![form.rpm_limit, form.tpm_limit].every((value) => value.trim() === '' || WHOLE.test(value.trim()))) return 'budget:validation.limit';
  return true;
}

/** Share of a window used, 0 to 100. */
export function usedPercent(usage: BudgetUsage): number {
  if (usage.quota <= 0) return 100;
  return Math.min(100, Math.round((usage.used / usage.quota) * 100));
}

/** A use bar's colour: red when full, amber from 80 %. */
export function usageColor(percent: number): 'error' | 'warning' | 'primary' {
  return percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary';
}
