import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';

/** A channel as typed in the editor, before it is saved. */
export class FetchModelsDto {
  @IsInt()
  type: number;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  base_url?: string;

  @IsString()
  @MaxLength(10_000)
  key: string;
}
