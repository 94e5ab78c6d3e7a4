import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { MAX_QUOTA } from '../../../database/columns';
import { BudgetLimitsDto } from '../../billing/budget-fields';
import { OptionalDisplayNameField, OptionalNewPasswordField, PasswordField, UsernameField } from './fields';

export class CreateUserDto {
  @UsernameField()
  username: string;

  @PasswordField()
  password: string;

  @OptionalDisplayNameField()
  display_name?: string;

  @IsOptional()
  @IsInt({ message: 'validation.not_integer' })
  role?: number;
}

export class UpdateUserDto extends BudgetLimitsDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsOptional()
  @UsernameField()
  username?: string;

  @OptionalDisplayNameField()
  display_name?: string;

  @OptionalNewPasswordField()
  password?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  group?: string;

  @IsOptional()
  @IsInt({ message: 'user.invalid_quota' })
  @Min(0, { message: 'user.invalid_quota' })
  @Max(MAX_QUOTA, { message: 'user.invalid_quota' })
  quota?: number;

  /**
   * The balance the editor loaded. The change applied is quota − original_quota, as a delta,
   * so spending that landed while the form was open is kept. Absent: the balance read now.
   */
  @IsOptional()
  @IsInt({ message: 'user.invalid_quota' })
  @Min(0, { message: 'user.invalid_quota' })
  @Max(MAX_QUOTA, { message: 'user.invalid_quota' })
  original_quota?: number;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  remark?: string;
}

export class UpdateSelfDto {
  @OptionalDisplayNameField()
  display_name?: string;

  @OptionalNewPasswordField()
  password?: string;

  @IsOptional()
  @IsString()
  original_password?: string;
}

export const MANAGE_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

export class ManageUserDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsIn(MANAGE_ACTIONS, { message: 'user.invalid_action' })
  action: ManageAction;
}

export class UserSettingDto {
  @IsOptional()
  @IsIn(['email', 'webhook'], { message: 'user.invalid_notify_type' })
  notify_type?: 'email' | 'webhook';

  @IsOptional()
  @Type(() => Number)
  @Min(0, { message: 'user.invalid_threshold' })
  quota_warning_threshold?: number;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  webhook_url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  webhook_secret?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  notification_email?: string;

  @IsOptional()
  accept_unset_model_ratio_model?: boolean;
}

export class AffTransferDto {
  @IsInt({ message: 'validation.not_integer' })
  @Max(MAX_QUOTA, { message: 'validation.too_large' })
  quota: number;
}
