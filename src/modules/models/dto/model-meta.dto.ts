import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { MAX_DESCRIPTION_LENGTH, MAX_ICON_LENGTH, MAX_MODEL_NAME_LENGTH, MAX_TOKEN_COUNT, MODALITIES, MODEL_TAGS } from '../model-meta.catalogue';
import type { Modality, ModelTag } from '../model-meta.wire';

const TokenCountField = () =>
  applyDecorators(IsOptional(), IsInt({ message: 'model_meta.invalid_token_count' }), Min(0, { message: 'model_meta.invalid_token_count' }), Max(MAX_TOKEN_COUNT, { message: 'model_meta.invalid_token_count' }));
const ModalitiesField = () =>
  applyDecorators(IsOptional(), IsArray({ message: 'model_meta.invalid_modality' }), ArrayMaxSize(MODALITIES.length, { message: 'model_meta.invalid_modality' }), IsIn(MODALITIES, { each: true, message: 'model_meta.invalid_modality' }));

/** Every field but the name: left out on create they take their empty defaults, on update they stay. */
class ModelMetaFieldsDto {
  @IsOptional()
  @IsString({ message: 'model_meta.invalid_description' })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: 'model_meta.invalid_description' })
  description?: string;

  /** 0 clears the vendor. */
  @IsOptional()
  @IsInt({ message: 'model_meta.invalid_vendor' })
  @Min(0, { message: 'model_meta.invalid_vendor' })
  @Max(2_147_483_647, { message: 'model_meta.invalid_vendor' })
  vendor_id?: number;

  @IsOptional()
  @IsArray({ message: 'model_meta.invalid_tag' })
  @ArrayMaxSize(MODEL_TAGS.length, { message: 'model_meta.invalid_tag' })
  @IsIn(MODEL_TAGS, { each: true, message: 'model_meta.invalid_tag' })
  tags?: ModelTag[];

  @TokenCountField()
  context_length?: number;

  @TokenCountField()
  max_output?: number;

  @ModalitiesField()
  input_modalities?: Modality[];

  @ModalitiesField()
  output_modalities?: Modality[];

  /** Checked in the service: empty, a built-in key or an https URL. */
  @IsOptional()
  @IsString({ message: 'model_meta.invalid_icon' })
  @MaxLength(MAX_ICON_LENGTH, { message: 'model_meta.invalid_icon' })
  icon?: string;
}

export class CreateModelMetaDto extends ModelMetaFieldsDto {
  @IsString({ message: 'model_meta.invalid_name' })
  @Length(1, MAX_MODEL_NAME_LENGTH, { message: 'model_meta.invalid_name' })
  model_name: string;
}

export class UpdateModelMetaDto extends ModelMetaFieldsDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsOptional()
  @IsString({ message: 'model_meta.invalid_name' })
  @Length(1, MAX_MODEL_NAME_LENGTH, { message: 'model_meta.invalid_name' })
  model_name?: string;
}
