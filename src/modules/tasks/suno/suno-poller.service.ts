import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { nowSeconds } from '../../../database/columns';
import { GenericTaskEntity } from '../entities/generic-task.entity';
import { TaskBillingService } from '../task-billing.service';
import { PollPlatform, TaskPoller } from '../task-poller';
import { isRecord, JsonRecord, stringField, TaskRelaySupport } from '../task-relay-support.service';
import { normaliseTaskStatus, SUNO_ACTIONS, SUNO_PLATFORM, TASK_FINISHED_STATUSES } from './suno-task';

type TaskChanges = Pick<GenericTaskEntity, 'status' | 'progress' | 'fail_reason' | 'start_time' | 'finish_time' | 'data'>;

/** A Suno API server's side of polling: one POST /suno/fetch per channel. */
const SUNO_POLLING: PollPlatform<GenericTaskEntity, TaskChanges> = {
  platform: 'Suno',
  unfinished: { platform: SUNO_PLATFORM, status: Not(In(TASK_FINISHED_STATUSES)) },
  upstreamId: (task) => task.task_id,
  listCall: (_channel, key, tasks) => ({ path: '/suno/fetch', headers: { authorization: `Bearer ${key}` }, body: { ids: tasks.map((task) => task.task_id), action: '' } }),
  itemsOf: ({ json }) => (isRecord(json) && json.code === 'success' && Array.isArray(json.data) ? json.data : undefined),
  itemId: (item) => stringField(item, 'task_id'),
  currentState,
  changesFrom,
  channelGone: (task) => ({ ...currentState(task), status: 'FAILURE', progress: '100%', fail_reason: 'The channel of this task no longer exists', finish_time: nowSeconds() }),
  stamp: () => ({ updated_at: nowSeconds() }),
  modelOf: (task) => Object.values(SUNO_ACTIONS).find((entry) => entry.action === task.action)?.model ?? 'suno',
};

/** Brings unfinished Suno tasks up to date (see TaskPoller). */
@Injectable()
export class SunoPollerService extends TaskPoller<GenericTaskEntity, TaskChanges> {
  constructor(@InjectRepository(GenericTaskEntity) tasks: Repository<GenericTaskEntity>, support: TaskRelaySupport, billing: TaskBillingService) {
    super(tasks, support, billing, SUNO_POLLING);
  }
}

function currentState(task: GenericTaskEntity): TaskChanges {
  const { status, progress, fail_reason, start_time, finish_time, data } = task;
  return { status, progress, fail_reason, start_time, finish_time, data };
}

function changesFrom(task: GenericTaskEntity, item: JsonRecord): TaskChanges {
  const number = (name: string, fallback: number) => (typeof item[name] === 'number' ? (item[name] as number) : fallback);
  const status = typeof item.status === 'string' && item.status ? normaliseTaskStatus(item.status) : task.status;
  const progress = typeof item.progress === 'string' && item.progress ? item.progress : status === 'SUCCESS' ? '100%' : task.progress;
  return {
    status,
    progress,
    fail_reason: typeof item.fail_reason === 'string' ? item.fail_reason : task.fail_reason,
    start_time: number('start_time', task.start_time),
    finish_time: number('finish_time', task.finish_time),
    data: item.data === undefined ? task.data : JSON.stringify(item.data),
  };
}
