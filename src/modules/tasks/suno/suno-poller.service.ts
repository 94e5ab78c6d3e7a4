import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { nowSeconds } from '../../../database/columns';
import { GenericTaskEntity } from '../entities/generic-task.entity';
import { TaskBillingService } from '../task-billing.service';
import { isRecord, JsonRecord, POLL_TIMEOUT_MS, stringField, TaskRelaySupport } from '../task-relay-support.service';
import { normaliseTaskStatus, SUNO_ACTIONS, SUNO_PLATFORM, TASK_FINISHED_STATUSES } from './suno-task';

const BATCH_LIMIT = 500;

type TaskChanges = Pick<GenericTaskEntity, 'status' | 'progress' | 'fail_reason' | 'start_time' | 'finish_time' | 'data'>;

/**
 * Brings unfinished Suno tasks up to date. As for drawings, every change is a conditional
 * UPDATE on the status and progress it was read with: overlapping rounds refund a failed
 * task once.
 */
@Injectable()
export class SunoPollerService {
  private readonly logger = new Logger(SunoPollerService.name);
  /** How long one channel may take to answer a poll (tests shorten it). */
  timeoutMs = POLL_TIMEOUT_MS;

  constructor(
    @InjectRepository(GenericTaskEntity) private readonly tasks: Repository<GenericTaskEntity>,
    private readonly support: TaskRelaySupport,
    private readonly billing: TaskBillingService,
  ) {}

  async pollOnce(): Promise<void> {
    const unfinished = await this.tasks.find({ where: { platform: SUNO_PLATFORM, status: Not(In(TASK_FINISHED_STATUSES)) }, order: { id: 'ASC' }, take: BATCH_LIMIT });
    const byChannel = new Map<number, GenericTaskEntity[]>();
    for (const task of unfinished) byChannel.set(task.channel_id, [...(byChannel.get(task.channel_id) ?? []), task]);
    await Promise.all([...byChannel].map(([channelId, tasks]) => this.pollChannel(channelId, tasks)));
  }

  private async pollChannel(channelId: number, tasks: GenericTaskEntity[]): Promise<void> {
    const channel = this.support.channel(channelId);
    if (!channel) {
      for (const task of tasks) await this.apply(task, { ...currentState(task), status: 'FAILURE', progress: '100%', fail_reason: 'The channel of this task no longer exists', finish_time: nowSeconds() });
      return;
    }
    let answer;
    try {
      answer = await this.support.callJson(channel, '/suno/fetch', { authorization: `Bearer ${this.support.key(channel)}` }, { ids: tasks.map((task) => task.task_id), action: '' }, this.timeoutMs);
    } catch (error) {
      this.logger.warn(`polling channel ${channelId} failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const list = isRecord(answer.json) && answer.json.code === 'success' && Array.isArray(answer.json.data) ? answer.json.data : undefined;
    if (answer.status !== 200 || !list) {
      this.logger.warn(`polling channel ${channelId}: status ${answer.status}, no task list`);
      return;
    }
    const byId = new Map(tasks.map((task) => [task.task_id, task]));
    for (const item of list) {
      if (!isRecord(item)) continue;
      const task = byId.get(stringField(item, 'task_id'));
      if (task) await this.apply(task, changesFrom(task, item));
    }
  }

  private async apply(task: GenericTaskEntity, next: TaskChanges): Promise<void> {
    const before = currentState(task);
    if ((Object.keys(next) as (keyof TaskChanges)[]).every((key) => next[key] === before[key])) return;
    const result = await this.tasks
      .createQueryBuilder()
      .update()
      .set({ ...next, updated_at: nowSeconds() })
      .where('id = :id AND status = :status AND progress = :progress', { id: task.id, status: task.status, progress: task.progress })
      .execute();
    if (!result.affected) return;
    if (next.status === 'FAILURE' && task.status !== 'FAILURE') {
      const model = Object.values(SUNO_ACTIONS).find((entry) => entry.action === task.action)?.model ?? 'suno';
      await this.billing.refund(task, model, `Suno task ${task.task_id} failed: ${next.fail_reason ?? ''}`);
    }
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
