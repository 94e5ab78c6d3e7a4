import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const MAX_TIMESTAMP = 253_402_300_799;
export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The window of GET /api/data/ and /api/data/self/. */
export class DataQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  username?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_TIMESTAMP)
  start_timestamp?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_TIMESTAMP)
  end_timestamp?: number;

  /** Bucket size of the answer; hour (as stored) when absent. */
  @IsOptional()
  @IsIn(GRANULARITIES, { message: 'data.invalid_granularity' })
  granularity?: Granularity;
}
