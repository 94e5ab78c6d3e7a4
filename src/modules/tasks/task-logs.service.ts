import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '../../common/http/pagination';
import { OptionsService } from '../options/options.service';
import { GenericTaskEntity } from './entities/generic-task.entity';
import { MidjourneyTaskEntity } from './entities/midjourney-task.entity';
import { drawingImageUrl } from './midjourney/midjourney-task.view';
import { parseJsonText } from './task-relay-support.service';
import { DrawingTaskView, GenericTaskView, TaskPage } from './tasks.wire';

/** Which tasks a log page lists. Absent fields do not filter. */
export interface TaskLogFilter {
  /** Set for the self endpoints. */
  userId?: number;
  channelId?: number;
  /** The upstream's task id (mj_id or task_id), matched exactly. */
  taskId?: string;
  /** Same unit as the table's submit_time: milliseconds for drawings, seconds for tasks. */
  start?: number;
  end?: number;
}

/** Zero-based page `p` and a page size clamped to 1..100. */
export interface ZeroBasedPage {
  page: number;
  pageSize: number;
}

export function parseZeroBasedPage(query: Record<string, unknown>): ZeroBasedPage {
  const page = Number(query.p);
  const size = Number(query.page_size ?? query.size);
  return {
    page: Number.isInteger(page) && page >= 0 ? Math.min(page, MAX_PAGE) : 0,
    pageSize: Number.isInteger(size) && size > 0 ? Math.min(size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
  };
}

/** The drawing log (/api/mj) and the task log (/api/task). */
@Injectable()
export class TaskLogsService {
  constructor(
    @InjectRepository(MidjourneyTaskEntity) private readonly drawings: Repository<MidjourneyTaskEntity>,
    @InjectRepository(GenericTaskEntity) private readonly tasks: Repository<GenericTaskEntity>,
    private readonly options: OptionsService,
  ) {}

  async listDrawings(filter: TaskLogFilter, page: ZeroBasedPage, asAdmin: boolean): Promise<TaskPage<DrawingTaskView>> {
    const query = filtered(this.drawings.createQueryBuilder('task'), filter, 'mj_id');
    const [rows, total] = await query.orderBy('task.id', 'DESC').skip(page.page * page.pageSize).take(page.pageSize).getManyAndCount();
    const forward = this.options.get('MjForwardUrlEnabled');
    const server = this.options.get('ServerAddress');
    const items = rows.map((row): DrawingTaskView => ({
      id: row.id,
      created_at: row.created_at,
      user_id: row.user_id,
      code: row.code,
      action: row.action,
      mj_id: row.mj_id,
      prompt: row.prompt ?? '',
      prompt_en: row.prompt_en ?? '',
      description: row.description ?? '',
      submit_time: row.submit_time,
      start_time: row.start_time,
      finish_time: row.finish_time,
      image_url: drawingImageUrl(row, forward, server),
      status: row.status,
      progress: row.progress,
      fail_reason: row.fail_reason ?? '',
      channel_id: asAdmin ? row.channel_id : 0,
      quota: row.quota,
    }));
    return { page: page.page, page_size: page.pageSize, total, items };
  }

  async listTasks(filter: TaskLogFilter, page: ZeroBasedPage, asAdmin: boolean): Promise<TaskPage<GenericTaskView>> {
    const query = filtered(this.tasks.createQueryBuilder('task'), filter, 'task_id');
    const [rows, total] = await query.orderBy('task.id', 'DESC').skip(page.page * page.pageSize).take(page.pageSize).getManyAndCount();
    const items = rows.map((row) => toGenericTaskView(row, asAdmin));
    return { page: page.page, page_size: page.pageSize, total, items };
  }
}

export function toGenericTaskView(row: GenericTaskEntity, asAdmin: boolean): GenericTaskView {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    task_id: row.task_id,
    platform: row.platform,
    user_id: row.user_id,
    channel_id: asAdmin ? row.channel_id : 0,
    quota: row.quota,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    properties: parseJsonText(row.properties),
    data: parseJsonText(row.data),
  };
}

function filtered<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, filter: TaskLogFilter, idColumn: 'mj_id' | 'task_id'): SelectQueryBuilder<T> {
  if (filter.userId !== undefined) query.andWhere('task.user_id = :userId', { userId: filter.userId });
  if (filter.channelId) query.andWhere('task.channel_id = :channelId', { channelId: filter.channelId });
  if (filter.taskId) query.andWhere(`task.${idColumn} = :taskId`, { taskId: filter.taskId });
  if (filter.start) query.andWhere('task.submit_time >= :start', { start: filter.start });
  if (filter.end) query.andWhere('task.submit_time <= :end', { end: filter.end });
  return query;
}
