import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';

/** Units of quota to buy: a whole number from 1. */
const TopUpAmountField = () => applyDecorators(IsInt({ message: 'payment.invalid_amount' }), Min(1, { message: 'payment.invalid_amount' }), Max(1_000_000_000, { message: 'payment.invalid_amount' }));

/** Accepted for compatibility with new-api's console; not used. */
class TopUpCodeDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  top_up_code?: string;
}

export class TopUpAmountDto extends TopUpCodeDto {
  @TopUpAmountField()
  amount: number;
}

/** POST /api/user/amount: `payment_method` "stripe" prices the amount in Stripe's US dollars; any other, or none, at Epay's Price. */
export class PayableAmountDto extends TopUpAmountDto {
  @IsOptional()
  @IsString({ message: 'payment.invalid_method' })
  @MaxLength(32, { message: 'payment.invalid_method' })
  payment_method?: string;
}

/** POST /api/user/pay: `amount` units of quota, or with `plan_id` a subscription plan at its price (amount is then not read). */
export class PayDto extends TopUpCodeDto {
  @ValidateIf((dto: PayDto) => dto.plan_id === undefined)
  @TopUpAmountField()
  amount: number;

  @IsString({ message: 'payment.invalid_method' })
  @MaxLength(32, { message: 'payment.invalid_method' })
  payment_method: string;

  @IsOptional()
  @Type(() => Number)
  @RowIdField()
  plan_id?: number;
}
