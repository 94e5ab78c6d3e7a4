import { IsOptional } from 'class-validator';
import { OptionalIdQuery, OptionalTextQuery, OptionalTimestampQuery } from '../../../common/http/query-fields';
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

  @OptionalIdQuery()
  channel_id?: number;

  @OptionalTextQuery(191)
  mj_id?: string;

  @OptionalTextQuery(191)
  task_id?: string;

  @OptionalTimestampQuery(MAX_TIMESTAMP)
  start_timestamp?: number;

  @OptionalTimestampQuery(MAX_TIMESTAMP)
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
