import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_UNIX_SECONDS, OptionalIdQuery, OptionalTextQuery, OptionalTimestampQuery } from '../../../common/http/query-fields';
import type { LogFilter } from '../logs.service';

/** Filters of the log list and the log statistics; username and channel apply to admins only. */
export class LogQueryDto {
  @IsOptional()
  p?: string;

  @IsOptional()
  page_size?: string;

  /** 0 (or absent) means every type. */
  @IsOptional()
  @Type(() => Number)
  @IsIn([0, 1, 2, 3, 4])
  type?: number;

  @OptionalTextQuery(64)
  username?: string;

  @OptionalTextQuery(64)
  token_name?: string;

  @OptionalTextQuery(255)
  model_name?: string;

  @OptionalTextQuery(64)
  group?: string;

  @OptionalTimestampQuery()
  start_timestamp?: number;

  @OptionalTimestampQuery()
  end_timestamp?: number;

  @OptionalIdQuery()
  channel?: number;

  /** The draws on one subscription. */
  @OptionalIdQuery()
  subscription_id?: number;
}

export class DeleteLogsQueryDto {
  /** Entries created strictly before this unix time are removed. */
  @Type(() => Number)
  @IsInt({ message: 'log.invalid_target_timestamp' })
  @Min(1, { message: 'log.invalid_target_timestamp' })
  @Max(MAX_UNIX_SECONDS, { message: 'log.invalid_target_timestamp' })
  target_timestamp: number;
}

/** Filters every caller may use on their own entries. */
export function ownLogFilter(query: LogQueryDto): LogFilter {
  return {
    type: query.type,
    tokenName: query.token_name?.trim(),
    modelName: query.model_name?.trim(),
    group: query.group?.trim(),
    startTimestamp: query.start_timestamp,
    endTimestamp: query.end_timestamp,
    subscriptionId: query.subscription_id,
  };
}

/** Admins also filter by username and channel. */
export function adminLogFilter(query: LogQueryDto): LogFilter {
  return { ...ownLogFilter(query), username: query.username?.trim(), channelId: query.channel };
}
