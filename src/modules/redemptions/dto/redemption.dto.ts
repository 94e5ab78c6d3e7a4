import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { MAX_QUOTA } from '../../../database/columns';

export const MAX_REDEMPTIONS_PER_CREATE = 100;
/** The spec's default for a new code: 100000 quota ($0.2). */
export const DEFAULT_REDEMPTION_QUOTA = 100_000;

export class CreateRedemptionDto {
  @IsString({ message: 'redemption.invalid_name' })
  @Length(1, 20, { message: 'redemption.invalid_name' })
  name: string;

  @IsOptional()
  @IsInt({ message: 'redemption.invalid_quota' })
  @Min(1, { message: 'redemption.invalid_quota' })
  @Max(MAX_QUOTA, { message: 'redemption.invalid_quota' })
  quota?: number;

  /** Codes that grant this plan instead of quota. */
  @IsOptional()
  @Type(() => Number)
  @RowIdField()
  plan_id?: number;

  @IsOptional()
  @IsInt({ message: 'redemption.invalid_count' })
  @Min(1, { message: 'redemption.invalid_count' })
  @Max(MAX_REDEMPTIONS_PER_CREATE, { message: 'redemption.invalid_count' })
  count?: number;
}

export class UpdateRedemptionDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsOptional()
  @IsString({ message: 'redemption.invalid_name' })
  @Length(1, 20, { message: 'redemption.invalid_name' })
  name?: string;

  @IsOptional()
  @IsInt({ message: 'redemption.invalid_quota' })
  @Min(1, { message: 'redemption.invalid_quota' })
  @Max(MAX_QUOTA, { message: 'redemption.invalid_quota' })
  quota?: number;

  /** Read only with ?status_only=true. */
  @IsOptional()
  @IsIn([1, 2], { message: 'redemption.invalid_status' })
  status?: number;
}

export class RedeemDto {
  @IsString({ message: 'redemption.key_required' })
  @Length(1, 64, { message: 'redemption.key_required' })
  key: string;
}
