// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** `5h` rolls from the first call after the last window closed; the others are calendar periods in BudgetTimeZone. */
export type BudgetPeriod = '5h' | 'day' | 'week' | 'month';

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['5h', 'day', 'week', 'month'];

/** A budget window as set on a token or user: at most `quota` spent per period. */
export interface BudgetWindow {
  period: BudgetPeriod;
  quota: number;
}

/** A window's state, read-only in the token and user JSON. */
export interface BudgetUsage {
  period: BudgetPeriod;
  quota: number;
  used: number;
  /** Unix seconds when the open window resets; null for a `5h` window not open now (the next call opens it). */
  resets_at: number | null;
}
