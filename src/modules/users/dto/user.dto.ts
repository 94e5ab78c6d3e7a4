import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_QUOTA } from '../../../database/columns';

const USERNAME_PATTERN = /^\S+$/;

export class CreateUserDto {
  @IsString({ message: 'user.username_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @MaxLength(12, { message: 'user.username_too_long' })
  @Matches(USERNAME_PATTERN, { message: 'user.username_invalid' })
  username: string;

  @IsString({ message: 'user.password_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @Length(8, 20, { message: 'user.password_length' })
  password: string;

  @IsOptional()
  @IsString()
  @MaxLength(20, { message: 'user.display_name_too_long' })
  display_name?: string;

  @IsOptional()
  @IsInt({ message: 'validation.not_integer' })
  role?: number;
}

export class UpdateUserDto {
  @Type(() => Number)
  @IsInt({ message: 'common.invalid_id' })
  @Min(1, { message: 'common.invalid_id' })
  id: number;

  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'user.username_required' })
  @MaxLength(12, { message: 'user.username_too_long' })
  @Matches(USERNAME_PATTERN, { message: 'user.username_invalid' })
  username?: string;

  @IsOptional()
  @IsString()
  @MaxLength(20, { message: 'user.display_name_too_long' })
  display_name?: string;

  /** Blank leaves the password unchanged. */
  @IsOptional()
  @IsString()
  @Matches(/^$|^.{8,20}$/s, { message: 'user.password_length' })
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
  @IsOptional()
  @IsString()
  @MaxLength(20, { message: 'user.display_name_too_long' })
  display_name?: string;

  @IsOptional()
  @IsString()
  @Matches(/^$|^.{8,20}$/s, { message: 'user.password_length' })
  password?: string;

  @IsOptional()
  @IsString()
  original_password?: string;
}

export const MANAGE_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

export class ManageUserDto {
  @Type(() => Number)
  @IsInt({ message: 'common.invalid_id' })
  @Min(1, { message: 'common.invalid_id' })
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
