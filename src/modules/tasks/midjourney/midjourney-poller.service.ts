import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { OptionsService } from '../../options/options.service';
import { MidjourneyTaskEntity } from '../entities/midjourney-task.entity';
import { TaskBillingService } from '../task-billing.service';
import { PollPlatform, TaskPoller } from '../task-poller';
import { isRecord, JsonRecord, stringField, TaskRelaySupport } from '../task-relay-support.service';
import { MJ_FINISHED_STATUSES, modelForAction, isMjAction } from './midjourney-actions';
import { drawingImageUrl, toMidjourneyTaskDto } from './midjourney-task.view';

const NOTIFY_TIMEOUT_MS = 10_000;

type TaskChanges = Pick<MidjourneyTaskEntity, 'status' | 'progress' | 'image_url' | 'fail_reason' | 'prompt_en' | 'description' | 'state' | 'start_time' | 'finish_time' | 'buttons' | 'properties'>;

/** Midjourney-Proxy's side of polling: one list-by-condition call per channel. */
const MIDJOURNEY_POLLING: PollPlatform<MidjourneyTaskEntity, TaskChanges> = {
  platform: 'Midjourney',
  // Rows without an upstream id (an upload's answer is a list of links) have nothing to poll.
  unfinished: { status: Not(In(MJ_FINISHED_STATUSES)), mj_id: Not('') },
  upstreamId: (task) => task.mj_id,
  listCall: (_channel, key, tasks) => ({ path: '/mj/task/list-by-condition', headers: { 'mj-api-secret': key }, body: { ids: tasks.map((task) => task.mj_id) } }),
  itemsOf: (answer) => (Array.isArray(answer.json) ? answer.json : undefined),
  itemId: (item) => stringField(item, 'id'),
  currentState,
  changesFrom,
  channelGone: (task) => ({ ...currentState(task), status: 'FAILURE', progress: '100%', fail_reason: 'The channel of this task no longer exists', finish_time: Date.now() }),
  modelOf: (task) => (isMjAction(task.action) ? modelForAction(task.action) : 'midjourney'),
};

/** Brings unfinished drawing tasks up to date from their channels (see TaskPoller). */
@Injectable()
export class MidjourneyPollerService extends TaskPoller<MidjourneyTaskEntity, TaskChanges> {
  constructor(
    @InjectRepository(MidjourneyTaskEntity) tasks: Repository<MidjourneyTaskEntity>,
    support: TaskRelaySupport,
    billing: TaskBillingService,
    private readonly options: OptionsService,
  ) {
    super(tasks, support, billing, MIDJOURNEY_POLLING);
  }

  /** MjNotifyEnabled: tells the client's notifyHook of each change, off the polling path. */
  protected override afterChange(task: MidjourneyTaskEntity): void {
    if (!task.notify_hook) return;
    const dto = toMidjourneyTaskDto(task, drawingImageUrl(task, this.options.get('MjForwardUrlEnabled'), this.options.get('ServerAddress')));
    this.support
      .sendOutbound(task.notify_hook, 'POST', NOTIFY_TIMEOUT_MS, JSON.stringify(dto))
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
