import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNumber, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { MAX_QUOTA } from '../../../database/columns';
import { BudgetWindowsField } from '../../billing/budget-fields';

/** Ten years: beyond any plan anyone sells, and far from overflowing a unix time. */
export const MAX_PLAN_DAYS = 3650;
export const MAX_PLAN_MODELS = 500;

const NameField = () => applyDecorators(IsString({ message: 'plan.invalid_name' }), Length(1, 64, { message: 'plan.invalid_name' }));
/** In units (dollars of quota), to the cent. */
const PriceField = () =>
  applyDecorators(
    IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false }, { message: 'plan.invalid_price' }),
    Min(0, { message: 'plan.invalid_price' }),
    Max(1_000_000, { message: 'plan.invalid_price' }),
  );
const DurationField = () => applyDecorators(IsInt({ message: 'plan.invalid_duration' }), Min(1, { message: 'plan.invalid_duration' }), Max(MAX_PLAN_DAYS, { message: 'plan.invalid_duration' }));

/** The fields of a plan that may be left out: on create they take their defaults, on update they stay. */
class OptionalPlanFieldsDto {
  @IsOptional()
  @IsString({ message: 'plan.invalid_group' })
  @MaxLength(64, { message: 'plan.invalid_group' })
  group?: string;

  @IsOptional()
  @IsInt({ message: 'plan.invalid_total_quota' })
  @Min(0, { message: 'plan.invalid_total_quota' })
  @Max(MAX_QUOTA, { message: 'plan.invalid_total_quota' })
  total_quota?: number;

  @BudgetWindowsField()
  budget_windows?: unknown[];

  /** An empty list: every model (null, like any null field, means "not given"). */
  @IsOptional()
  @IsArray({ message: 'plan.invalid_models' })
  @ArrayMaxSize(MAX_PLAN_MODELS, { message: 'plan.invalid_models' })
  @IsString({ each: true, message: 'plan.invalid_models' })
  @MaxLength(255, { each: true, message: 'plan.invalid_models' })
  models?: string[] | null;

  @IsOptional()
  @IsBoolean({ message: 'plan.invalid_flag' })
  enabled?: boolean;

  @IsOptional()
  @IsBoolean({ message: 'plan.invalid_flag' })
  allow_wallet_fallback?: boolean;
}

export class CreatePlanDto extends OptionalPlanFieldsDto {
  @NameField()
  name: string;

  @PriceField()
  price: number;

  @DurationField()
  duration_days: number;
}

export class UpdatePlanDto extends OptionalPlanFieldsDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsOptional()
  @NameField()
  name?: string;

  @IsOptional()
  @PriceField()
  price?: number;

  @IsOptional()
  @DurationField()
  duration_days?: number;
}

/** POST /api/subscription/self: buy (or renew) a plan from the balance. */
export class BuyPlanDto {
  @Type(() => Number)
  @RowIdField()
  plan_id: number;
}
