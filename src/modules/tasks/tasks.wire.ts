// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** A drawing task as the drawing log shows it. channel_id is 0 for non-admins. */
export interface DrawingTaskView {
  id: number;
  created_at: number;
  user_id: number;
  code: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  /** Unix milliseconds. */
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  channel_id: number;
  quota: number;
}

/** A generic (Suno) task as the task log shows it. channel_id is 0 for non-admins. */
export interface GenericTaskView {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  channel_id: number;
  quota: number;
  action: string;
  status: string;
  fail_reason: string;
  /** Unix seconds. */
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  /** The client's submit body. */
  properties: unknown;
  /** The upstream's latest result. */
  data: unknown;
}

/** A page of a task log; `page` is zero-based, as the drawing and task log pages count. */
export interface TaskPage<T> {
  page: number;
  page_size: number;
  total: number;
  items: T[];
}
