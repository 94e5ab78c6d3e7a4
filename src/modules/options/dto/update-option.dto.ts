import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class UpdateOptionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(191)
  key: string;

  /** A string, number or boolean; checked against the option's definition by the service. */
  @IsDefined()
  value: unknown;
}
