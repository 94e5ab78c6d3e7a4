import { Type } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';

/** A 6-digit TOTP code, or a recovery code where the route accepts one. */
export class TwoFactorCodeDto {
  @IsString({ message: 'two_factor.code_required' })
  @Length(6, 32, { message: 'two_factor.code_invalid' })
  code: string;
}

/** POST /api/user/2fa/reset (root). */
export class ResetTwoFactorDto {
  @Type(() => Number)
  @RowIdField()
  user_id: number;
}
