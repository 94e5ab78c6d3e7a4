import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { LogFilter } from '../logs.service';

const MAX_TIMESTAMP = 253_402_300_799;

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

  @IsOptional()
  @IsString()
  @MaxLength(64)
  username?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  token_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  model_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  group?: string;

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

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  channel?: number;
}

export class DeleteLogsQueryDto {
  /** Entries created strictly before this unix time are removed. */
  @Type(() => Number)
  @IsInt({ message: 'log.invalid_target_timestamp' })
  @Min(1, { message: 'log.invalid_target_timestamp' })
  @Max(MAX_TIMESTAMP, { message: 'log.invalid_target_timestamp' })
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
  };
}

/** Admins also filter by username and channel. */
export function adminLogFilter(query: LogQueryDto): LogFilter {
  return { ...ownLogFilter(query), username: query.username?.trim(), channelId: query.channel };
}
