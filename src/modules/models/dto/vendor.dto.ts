import { Type } from 'class-transformer';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { RowIdField } from '../../../common/http/query-fields';
import { MAX_ICON_LENGTH, MAX_VENDOR_NAME_LENGTH } from '../model-meta.catalogue';

export class CreateVendorDto {
  @IsString({ message: 'vendor.invalid_name' })
  @Length(1, MAX_VENDOR_NAME_LENGTH, { message: 'vendor.invalid_name' })
  name: string;

  /** Checked in the service: empty, a built-in key or an https URL. */
  @IsOptional()
  @IsString({ message: 'model_meta.invalid_icon' })
  @MaxLength(MAX_ICON_LENGTH, { message: 'model_meta.invalid_icon' })
  icon?: string;
}

export class UpdateVendorDto {
  @Type(() => Number)
  @RowIdField()
  id: number;

  @IsOptional()
  @IsString({ message: 'vendor.invalid_name' })
  @Length(1, MAX_VENDOR_NAME_LENGTH, { message: 'vendor.invalid_name' })
  name?: string;

  @IsOptional()
  @IsString({ message: 'model_meta.invalid_icon' })
  @MaxLength(MAX_ICON_LENGTH, { message: 'model_meta.invalid_icon' })
  icon?: string;
}
