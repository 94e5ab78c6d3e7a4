import { channelTypesServedBy } from '../../channels/channel-types';
import type { GenericTaskEntity } from '../entities/generic-task.entity';
import { parseJsonText } from '../task-relay-support.service';

export const SUNO_PLATFORM = 'suno';
/** Channels of the Suno type: a Suno API server. */
export const SUNO_CHANNEL_TYPES = channelTypesServedBy('suno');
export const SUNO_ACTIONS: Record<string, { action: string; model: string }> = {
  music: { action: 'MUSIC', model: 'suno_music' },
  lyrics: { action: 'LYRICS', model: 'suno_lyrics' },
};

export const TASK_STATUSES = ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'UNKNOWN'];
export const TASK_FINISHED_STATUSES = ['SUCCESS', 'FAILURE'];

/** Suno API servers report their own words for some states; everything else is one of ours or UNKNOWN. */
const STATUS_SYNONYMS: Record<string, string> = { COMPLETE: 'SUCCESS', COMPLETED: 'SUCCESS', ERROR: 'FAILURE', FAILED: 'FAILURE', STREAMING: 'IN_PROGRESS', RUNNING: 'IN_PROGRESS', PENDING: 'QUEUED' };

export function normaliseTaskStatus(raw: string): string {
  const upper = raw.toUpperCase();
  if (TASK_STATUSES.includes(upper)) return upper;
  return STATUS_SYNONYMS[upper] ?? 'UNKNOWN';
}

/** The task as Suno clients read it (new-api's TaskDto). */
export function toSunoTaskDto(task: GenericTaskEntity) {
  return {
    task_id: task.task_id,
    action: task.action,
    status: task.status,
    fail_reason: task.fail_reason ?? '',
    submit_time: task.submit_time,
    start_time: task.start_time,
    finish_time: task.finish_time,
    progress: task.progress,
    data: parseJsonText(task.data),
  };
}
