import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { OptionsService } from '../../options/options.service';
import { MidjourneyTaskEntity } from '../entities/midjourney-task.entity';
import { TaskBillingService } from '../task-billing.service';
import { isRecord, JsonRecord, POLL_TIMEOUT_MS, stringField, TaskRelaySupport } from '../task-relay-support.service';
import { MJ_FINISHED_STATUSES, modelForAction, isMjAction } from './midjourney-actions';
import { drawingImageUrl, toMidjourneyTaskDto } from './midjourney-task.view';

const BATCH_LIMIT = 500;
const NOTIFY_TIMEOUT_MS = 10_000;

type TaskChanges = Pick<MidjourneyTaskEntity, 'status' | 'progress' | 'image_url' | 'fail_reason' | 'prompt_en' | 'description' | 'state' | 'start_time' | 'finish_time' | 'buttons' | 'properties'>;

/**
 * Brings unfinished drawing tasks up to date from their channels. Each task changes with a
 * conditional UPDATE on the status and progress it was read with, so when two rounds overlap
 * only one of them wins a change, and a failed task is refunded exactly once.
 */
@Injectable()
export class MidjourneyPollerService {
  private readonly logger = new Logger(MidjourneyPollerService.name);
  /** How long one channel may take to answer a poll (tests shorten it). */
  timeoutMs = POLL_TIMEOUT_MS;

  constructor(
    @InjectRepository(MidjourneyTaskEntity) private readonly tasks: Repository<MidjourneyTaskEntity>,
    private readonly support: TaskRelaySupport,
    private readonly billing: TaskBillingService,
    private readonly options: OptionsService,
  ) {}

  /** One round over every unfinished task; a channel that fails or times out only skips its own tasks. */
  async pollOnce(): Promise<void> {
    const unfinished = await this.tasks.find({ where: { status: Not(In(MJ_FINISHED_STATUSES)), mj_id: Not('') }, order: { id: 'ASC' }, take: BATCH_LIMIT });
    const byChannel = new Map<number, MidjourneyTaskEntity[]>();
    for (const task of unfinished) byChannel.set(task.channel_id, [...(byChannel.get(task.channel_id) ?? []), task]);
    await Promise.all([...byChannel].map(([channelId, tasks]) => this.pollChannel(channelId, tasks)));
  }

  private async pollChannel(channelId: number, tasks: MidjourneyTaskEntity[]): Promise<void> {
    const channel = this.support.channel(channelId);
    if (!channel) {
      for (const task of tasks) await this.apply(task, { ...currentState(task), status: 'FAILURE', progress: '100%', fail_reason: 'The channel of this task no longer exists', finish_time: Date.now() });
      return;
    }
    let answer;
    try {
      answer = await this.support.callJson(channel, '/mj/task/list-by-condition', { 'mj-api-secret': this.support.key(channel) }, { ids: tasks.map((task) => task.mj_id) }, this.timeoutMs);
    } catch (error) {
      this.logger.warn(`polling channel ${channelId} failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (answer.status !== 200 || !Array.isArray(answer.json)) {
      this.logger.warn(`polling channel ${channelId}: status ${answer.status}, no task list`);
      return;
    }
    const byId = new Map(tasks.map((task) => [task.mj_id, task]));
    for (const item of answer.json) {
      if (!isRecord(item)) continue;
      const task = byId.get(stringField(item, 'id'));
      if (task) await this.apply(task, changesFrom(task, item));
    }
  }

  private async apply(task: MidjourneyTaskEntity, next: TaskChanges): Promise<void> {
    const before = currentState(task);
    if ((Object.keys(next) as (keyof TaskChanges)[]).every((key) => next[key] === before[key])) return;
    const result = await this.tasks
      .createQueryBuilder()
      .update()
      .set(next)
      .where('id = :id AND status = :status AND progress = :progress', { id: task.id, status: task.status, progress: task.progress })
      .execute();
    if (!result.affected) return;
    const updated: MidjourneyTaskEntity = { ...task, ...next };
    if (next.status === 'FAILURE' && task.status !== 'FAILURE') {
      await this.billing.refund(task, isMjAction(task.action) ? modelForAction(task.action) : 'midjourney', `Drawing task ${task.mj_id} failed: ${next.fail_reason ?? ''}`);
    }
    if (task.notify_hook) this.notify(task.notify_hook, updated);
  }

  /** MjNotifyEnabled: tells the client's notifyHook of each change, off the polling path. */
  private notify(hook: string, task: MidjourneyTaskEntity): void {
    const dto = toMidjourneyTaskDto(task, drawingImageUrl(task, this.options.get('MjForwardUrlEnabled'), this.options.get('ServerAddress')));
    this.support
      .sendOutbound(hook, 'POST', NOTIFY_TIMEOUT_MS, JSON.stringify(dto))
      .then((answer) => answer.body.resume())
      .catch((error: Error) => this.logger.warn(`notifyHook of task ${task.mj_id} failed: ${error.message}`));
  }
}

function currentState(task: MidjourneyTaskEntity): TaskChanges {
  const { status, progress, image_url, fail_reason, prompt_en, description, state, start_time, finish_time, buttons, properties } = task;
  return { status, progress, image_url, fail_reason, prompt_en, description, state, start_time, finish_time, buttons, properties };
}

/** The upstream's view of the task, in our columns; fields it leaves out keep their values. */
function changesFrom(task: MidjourneyTaskEntity, item: JsonRecord): TaskChanges {
  const number = (name: string, fallback: number) => (typeof item[name] === 'number' ? (item[name] as number) : fallback);
  const text = (name: string, fallback: string | null) => (typeof item[name] === 'string' ? (item[name] as string) : fallback);
  const status = text('status', task.status) || task.status;
  return {
    status,
    progress: text('progress', task.progress) || (status === 'SUCCESS' ? '100%' : task.progress),
    image_url: text('imageUrl', task.image_url),
    fail_reason: text('failReason', task.fail_reason),
    prompt_en: text('promptEn', task.prompt_en),
    description: text('description', task.description),
    state: text('state', task.state) ?? '',
    start_time: number('startTime', task.start_time),
    finish_time: number('finishTime', task.finish_time),
    buttons: Array.isArray(item.buttons) ? JSON.stringify(item.buttons) : task.buttons,
    properties: isRecord(item.properties) ? JSON.stringify(item.properties) : task.properties,
  };
}
