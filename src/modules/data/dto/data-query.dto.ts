import { IsIn, IsOptional } from 'class-validator';
import { OptionalTextQuery, OptionalTimestampQuery } from '../../../common/http/query-fields';
export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The window of GET /api/data/ and /api/data/self/. */
export class DataQueryDto {
  @OptionalTextQuery(64)
  username?: string;

  @OptionalTimestampQuery()
  start_timestamp?: number;

  @OptionalTimestampQuery()
  end_timestamp?: number;

  /** Bucket size of the answer; hour (as stored) when absent. */
  @IsOptional()
  @IsIn(GRANULARITIES, { message: 'data.invalid_granularity' })
  granularity?: Granularity;
}
