import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { BudgetLimitsDto } from '../../billing/budget-fields';
import { MAX_FALLBACK_MODELS } from '../../options/option-definitions';

export const MAX_TOKEN_NAME = 30;
export const MAX_TOKENS_PER_CREATE = 100;
/** Year 9999: later expiries are typos, not plans. */
export const MAX_EXPIRED_TIME = 253_402_300_799;

/** Fields a token write may carry; all optional so that an edit can send only what changed. */
class TokenFieldsDto extends BudgetLimitsDto {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TOKEN_NAME, { message: 'token.name_too_long' })
  name?: string;

  @IsOptional()
  @IsInt({ message: 'token.invalid_quota' })
  @Min(0, { message: 'token.invalid_quota' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'token.invalid_quota' })
  remain_quota?: number;

  @IsOptional()
  @IsBoolean()
  unlimited_quota?: boolean;

  /** -1 never expires; otherwise unix seconds in the future (checked by the service). */
  @IsOptional()
  @IsInt({ message: 'token.invalid_expired_time' })
  @Min(-1, { message: 'token.invalid_expired_time' })
  @Max(MAX_EXPIRED_TIME, { message: 'token.invalid_expired_time' })
  expired_time?: number;

  @IsOptional()
  @IsBoolean()
  model_limits_enabled?: boolean;

  /** Comma-separated model names. */
  @IsOptional()
  @IsString()
  @MaxLength(30_000, { message: 'token.model_limits_too_long' })
  model_limits?: string | null;

  /** One IP or CIDR per line. */
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  allow_ips?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  group?: string;

  /** The token's own fallback chain, in order (replaces ModelFallbacks); empty: the setting's. */
  @IsOptional()
  @IsArray({ message: 'token.invalid_model_fallbacks' })
  @ArrayMaxSize(MAX_FALLBACK_MODELS, { message: 'token.invalid_model_fallbacks' })
  @IsString({ each: true, message: 'token.invalid_model_fallbacks' })
  @MaxLength(191, { each: true, message: 'token.invalid_model_fallbacks' })
  model_fallbacks?: string[];
  @IsOptional()
  @IsBoolean()
  response_cache?: boolean;

  @IsOptional()
  @IsBoolean()
  response_cache_nondeterministic?: boolean;
}

export class CreateTokenDto extends TokenFieldsDto {
  /** How many tokens to create; extra ones get a random suffix on the name. */
  @IsOptional()
  @IsInt({ message: 'token.invalid_count' })
  @Min(1, { message: 'token.invalid_count' })
  @Max(MAX_TOKENS_PER_CREATE, { message: 'token.invalid_count' })
  count?: number;
}

export class UpdateTokenDto extends TokenFieldsDto {
  @RowIdField()
  id: number;

  /**
   * The remain_quota the editor loaded: the cap moves by remain_quota − original_remain_quota,
   * so calls settled while the form was open keep their effect. Absent: the value read now.
   */
  @IsOptional()
  @IsInt({ message: 'token.invalid_quota' })
  @Min(0, { message: 'token.invalid_quota' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'token.invalid_quota' })
  original_remain_quota?: number;

  /** Read only with ?status_only=true; a full edit leaves the status alone. */
  @IsOptional()
  @IsIn([1, 2], { message: 'token.invalid_status' })
  status?: number;
}

export class TokenIdsDto {
  @IsArray({ message: 'token.ids_required' })
  @ArrayNotEmpty({ message: 'token.ids_required' })
  @ArrayMaxSize(1000)
  @RowIdField(true)
  ids: number[];
}
