import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { CHANNEL_KEY_MODES } from '../channel-keys';
import { CHANNEL_TYPE_IDS } from '../channel-types';
import type { ChannelKeyMode } from '../channel.wire';

/** Long enough for a few hundred model names or a large mapping; far inside a TEXT column. */
export const MAX_LIST_TEXT = 30_000;
/** The key field may hold one key per line in batch mode. */
export const MAX_KEY_FIELD = 500_000;
export const MIN_PRIORITY = -999;
export const MAX_PRIORITY = 1_000_000_000;
export const MAX_WEIGHT = 1_000_000;
export const MAX_IDS_PER_CALL = 1000;

export const CHANNEL_MODES = ['single', 'batch'] as const;
export type ChannelMode = (typeof CHANNEL_MODES)[number];

/** Fields a channel write may carry besides name, key and models; JSON fields are checked by the service. */
class ChannelFieldsDto {
  /** Any catalogue type; which may be saved (not a retired one, unless the channel already has it) is the service's rule. */
  @IsOptional()
  @IsInt({ message: 'channel.invalid_type' })
  @IsIn(CHANNEL_TYPE_IDS, { message: 'channel.invalid_type' })
  type?: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  group?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  base_url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  other?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  openai_organization?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  test_model?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64, { message: 'channel.tag_too_long' })
  tag?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  model_mapping?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  status_code_mapping?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  setting?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  param_override?: string | null;

  @IsOptional()
  @IsInt({ message: 'channel.priority_invalid' })
  @Min(MIN_PRIORITY, { message: 'channel.priority_invalid' })
  @Max(MAX_PRIORITY, { message: 'channel.priority_invalid' })
  priority?: number;

  @IsOptional()
  @IsInt({ message: 'channel.weight_invalid' })
  @Min(0, { message: 'channel.weight_invalid' })
  @Max(MAX_WEIGHT, { message: 'channel.weight_invalid' })
  weight?: number;

  @IsOptional()
  @IsIn([0, 1], { message: 'channel.auto_ban_invalid' })
  auto_ban?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  max_input_tokens?: number;

  @IsOptional()
  @IsIn([1, 2, 3], { message: 'channel.invalid_status' })
  status?: number;

  @IsOptional()
  @IsIn(CHANNEL_KEY_MODES, { message: 'channel.invalid_key_mode' })
  multi_key_mode?: ChannelKeyMode;
}

export class CreateChannelDto extends ChannelFieldsDto {
  @IsOptional()
  @IsIn(CHANNEL_MODES, { message: 'channel.invalid_mode' })
  mode?: ChannelMode;

  @IsString({ message: 'channel.name_and_key_required' })
  @IsNotEmpty({ message: 'channel.name_and_key_required' })
  @MaxLength(255, { message: 'channel.name_too_long' })
  name: string;

  @IsString({ message: 'channel.name_and_key_required' })
  @IsNotEmpty({ message: 'channel.name_and_key_required' })
  @MaxLength(MAX_KEY_FIELD, { message: 'channel.key_too_long' })
  key: string;

  @IsString({ message: 'channel.models_required' })
  @IsNotEmpty({ message: 'channel.models_required' })
  @MaxLength(MAX_LIST_TEXT)
  models: string;
}

/** A full edit, or a patch of a few fields (status, priority, weight); an empty key keeps the stored one. */
export class UpdateChannelDto extends ChannelFieldsDto {
  @RowIdField()
  id: number;

  @IsOptional()
  @IsString()
  @MaxLength(255, { message: 'channel.name_too_long' })
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_KEY_FIELD, { message: 'channel.key_too_long' })
  key?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  models?: string;
}

export class ChannelIdsDto {
  @IsArray({ message: 'channel.ids_required' })
  @ArrayNotEmpty({ message: 'channel.ids_required' })
  @ArrayMaxSize(MAX_IDS_PER_CALL)
  @RowIdField(true)
  ids: number[];
}

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class BatchTagDto extends ChannelIdsDto {
  @Transform(trimmed)
  @IsString({ message: 'channel.tag_required' })
  @IsNotEmpty({ message: 'channel.tag_required' })
  @MaxLength(64, { message: 'channel.tag_too_long' })
  tag: string;
}

export class TagDto {
  @Transform(trimmed)
  @IsString({ message: 'channel.tag_required' })
  @IsNotEmpty({ message: 'channel.tag_required' })
  @MaxLength(64, { message: 'channel.tag_too_long' })
  tag: string;
}

/** Edits every channel carrying `tag`; absent (or empty) fields stay as they are. */
export class EditTagDto extends TagDto {
  @IsOptional()
  @IsString()
  @MaxLength(64, { message: 'channel.tag_too_long' })
  new_tag?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  model_mapping?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  groups?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LIST_TEXT)
  models?: string | null;

  @IsOptional()
  @IsInt({ message: 'channel.priority_invalid' })
  @Min(MIN_PRIORITY, { message: 'channel.priority_invalid' })
  @Max(MAX_PRIORITY, { message: 'channel.priority_invalid' })
  priority?: number | null;

  @IsOptional()
  @IsInt({ message: 'channel.weight_invalid' })
  @Min(0, { message: 'channel.weight_invalid' })
  @Max(MAX_WEIGHT, { message: 'channel.weight_invalid' })
  weight?: number | null;
}
