import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AppError } from '../../common/errors/app-error';
import { BUDGET_PERIODS, type BudgetWindow } from './budget.wire';
import { budgetWindowsText, normaliseBudgetWindows } from './budget-periods';

/** Above any real limit; keeps the counts in an INTEGER column. */
export const MAX_RATE_LIMIT = 1_000_000_000;

/** `budget_windows` of a token or user write: a list checked in full by budgetWindowsColumn. */
export function BudgetWindowsField(): PropertyDecorator {
  return applyDecorators(IsOptional(), IsArray({ message: 'budget.invalid_windows' }), ArrayMaxSize(BUDGET_PERIODS.length, { message: 'budget.invalid_windows' }));
}

/** `rpm_limit` or `tpm_limit`: 0 (none) or a positive count per minute. */
export function RateLimitField(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsInt({ message: 'budget.invalid_rate_limit' }),
    Min(0, { message: 'budget.invalid_rate_limit' }),
    Max(MAX_RATE_LIMIT, { message: 'budget.invalid_rate_limit' }),
  );
}

/** The column text of windows a client sent (null for none), or the envelope's error naming the rule. */
export function budgetWindowsColumn(value: unknown): string | null {
  const windows: BudgetWindow[] | null = normaliseBudgetWindows(value);
  if (!windows) throw new AppError('budget.invalid_windows');
  return budgetWindowsText(windows);
}

/** The budget fields of a token or user write: windows and both limits, all optional. */
export class BudgetLimitsDto {
  /** [{period, quota}]; an empty list removes every window. */
  @BudgetWindowsField()
  budget_windows?: unknown[];

  @RateLimitField()
  rpm_limit?: number;

  @RateLimitField()
  tpm_limit?: number;
}
