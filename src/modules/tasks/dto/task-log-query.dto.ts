import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { TaskLogFilter } from '../task-logs.service';

/** Large enough for milliseconds (drawings) as well as seconds (tasks). */
const MAX_TIMESTAMP = 253_402_300_799_999;

/** Filters of the drawing and task logs; channel_id applies to admins only. */
export class TaskLogQueryDto {
  /** Zero-based page. */
  @IsOptional()
  p?: string;

  @IsOptional()
  page_size?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  channel_id?: number;

  @IsOptional()
  @IsString()
  @MaxLength(191)
  mj_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(191)
  task_id?: string;

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
}

export function taskLogFilter(query: TaskLogQueryDto, own: { userId: number } | undefined): TaskLogFilter {
  return {
    userId: own?.userId,
    channelId: own ? undefined : query.channel_id,
    taskId: query.mj_id || query.task_id || undefined,
    start: query.start_timestamp,
    end: query.end_timestamp,
  };
}
