import type { MidjourneyTaskEntity } from '../entities/midjourney-task.entity';
import { parseJsonText } from '../task-relay-support.service';

/** The task as Midjourney-Proxy clients read it from /mj/task/{id}/fetch and list-by-condition. */
export interface MidjourneyTaskDto {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  status: string;
  progress: string;
  failReason: string;
  buttons: unknown;
  properties: unknown;
}

/**
 * MjForwardUrlEnabled: images are served through the gateway's /mj/image/{id}, hiding the
 * upstream's host. An upload has no task id to serve by, and its link is the client's own image.
 */
export function drawingImageUrl(task: Pick<MidjourneyTaskEntity, 'image_url' | 'mj_id'>, forward: boolean, serverAddress: string): string {
  if (!task.image_url) return '';
  return forward && task.mj_id ? `${serverAddress.replace(/\/+$/, '')}/mj/image/${encodeURIComponent(task.mj_id)}` : task.image_url;
}

export function toMidjourneyTaskDto(task: MidjourneyTaskEntity, imageUrl: string): MidjourneyTaskDto {
  return {
    id: task.mj_id,
    action: task.action,
    prompt: task.prompt ?? '',
    promptEn: task.prompt_en ?? '',
    description: task.description ?? '',
    state: task.state,
    submitTime: task.submit_time,
    startTime: task.start_time,
    finishTime: task.finish_time,
    imageUrl,
    status: task.status,
    progress: task.progress,
    failReason: task.fail_reason ?? '',
    buttons: parseJsonText(task.buttons) ?? [],
    properties: parseJsonText(task.properties) ?? {},
  };
}
