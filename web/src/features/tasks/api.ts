import type { DrawingTaskView as DrawingTask, GenericTaskView as GenericTask, TaskPage } from '@shared/tasks/tasks.wire';
import { api, type ApiResult, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { DrawingTask, GenericTask };

export interface TaskLogFilters {
  /** Admins only. */
  channel_id: string;
  task_id: string;
  /** Milliseconds for drawings, seconds for tasks, as each log stores its submit time. */
  start_timestamp: number;
  end_timestamp: number;
}

/** The task logs count pages from 0; the shared table hook counts from 1. */
function fromZeroBased<T>(result: ApiResult<TaskPage<T>>): ApiResult<Page<T>> {
  return result.ok ? { ...result, data: { ...result.data, page: result.data.page + 1 } } : result;
}

function query(filters: TaskLogFilters, admin: boolean, idName: 'mj_id' | 'task_id', page: number, pageSize: number) {
  return {
    p: page - 1,
    page_size: pageSize,
    channel_id: admin ? filters.channel_id.trim() || undefined : undefined,
    [idName]: filters.task_id.trim() || undefined,
    start_timestamp: filters.start_timestamp || undefined,
    end_timestamp: filters.end_timestamp || undefined,
  };
}

export const tasksApi = {
  drawings: async (filters: TaskLogFilters, admin: boolean, page: number, pageSize: number) =>
    fromZeroBased(await api.get<TaskPage<DrawingTask>>(admin ? '/api/mj/' : '/api/mj/self/', { query: query(filters, admin, 'mj_id', page, pageSize) })),
  tasks: async (filters: TaskLogFilters, admin: boolean, page: number, pageSize: number) =>
    fromZeroBased(await api.get<TaskPage<GenericTask>>(admin ? '/api/task/' : '/api/task/self', { query: query(filters, admin, 'task_id', page, pageSize) })),
};

const pad = (value: number) => String(value).padStart(2, '0');
/** Milliseconds → the value of a datetime-local input. */
export function toInputValue(ms: number): string {
  if (!ms) return '';
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
export function fromInputValue(value: string): number {
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? 0 : time;
}

/** Time taken: green up to 60 s, red above. */
export const durationColor = (seconds: number): 'success' | 'error' => (seconds <= 60 ? 'success' : 'error');

/** "45%" → 45; anything else → 0. */
export function progressValue(progress: string): number {
  const value = Number.parseFloat(progress);
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}
