import { Logger } from '@nestjs/common';
import { EntityManager, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import type { RelayChannel } from '../relay/caches/relay-channel';
import type { ChargedTask, TaskBillingService, TaskFailure, TaskPlatform } from './task-billing.service';
import { isRecord, JsonRecord, POLL_TIMEOUT_MS, TaskRelaySupport, UpstreamJson } from './task-relay-support.service';

const BATCH_LIMIT = 500;

/** What every polled task row has: its id, the status and progress a change is conditioned on, and its charge. */
export type PolledTask = ObjectLiteral & ChargedTask & { id: number; status: string; progress: string };

/** How one platform's upstream is asked for its tasks, and how its answer maps onto our columns. */
export interface PollPlatform<T extends PolledTask, C extends Partial<T>> {
  /** The unfinished tasks (by status and platform). */
  unfinished: FindOptionsWhere<T>;
  upstreamId(task: T): string;
  /** One list call for many tasks of a channel. */
  listCall(channel: RelayChannel, key: string, tasks: T[]): { path: string; headers: Record<string, string>; body: unknown };
  /** The task records in the upstream's answer, or undefined when the answer is not a task list. */
  itemsOf(answer: UpstreamJson): unknown[] | undefined;
  itemId(item: JsonRecord): string;
  /** The columns a change compares and writes, as they are now. */
  currentState(task: T): C;
  changesFrom(task: T, item: JsonRecord): C;
  /** The change that ends a task whose channel is gone. */
  channelGone(task: T): C;
  /** Written beside every change (an updated_at, say). */
  stamp?(): Partial<T>;
  /** The charge's model of the task, for its refund. */
  modelOf(task: T): string;
  platform: TaskPlatform;
}

/**
 * The polling job shared by the task relays: every round reads the unfinished tasks, asks
 * each channel once for all of its tasks, and applies each change with a conditional UPDATE
 * on the status and progress it was read with. When two rounds overlap, only one wins a
 * change; a move to FAILURE commits with its refund in one transaction, so it is refunded
 * exactly once.
 */
export abstract class TaskPoller<T extends PolledTask, C extends Partial<T>> {
  protected readonly logger = new Logger(this.constructor.name);
  /** How long one channel may take to answer a poll (tests shorten it). */
  timeoutMs = POLL_TIMEOUT_MS;

  protected constructor(
    protected readonly tasks: Repository<T>,
    protected readonly support: TaskRelaySupport,
    protected readonly billing: TaskBillingService,
    private readonly platform: PollPlatform<T, C>,
  ) {}

  /** One round over every unfinished task; a channel that fails or times out only skips its own tasks. */
  async pollOnce(): Promise<void> {
    const unfinished = await this.tasks.find({ where: this.platform.unfinished, order: { id: 'ASC' } as never, take: BATCH_LIMIT });
    const byChannel = new Map<number, T[]>();
    for (const task of unfinished) byChannel.set(task.channel_id, [...(byChannel.get(task.channel_id) ?? []), task]);
    await Promise.all([...byChannel].map(([channelId, tasks]) => this.pollChannel(channelId, tasks)));
  }

  /** Called after a change is written (the drawing relay tells the client's notifyHook). */
  protected afterChange(_updated: T): void {}

  private async pollChannel(channelId: number, tasks: T[]): Promise<void> {
    const channel = this.support.channel(channelId);
    if (!channel) {
      for (const task of tasks) await this.apply(task, this.platform.channelGone(task));
      return;
    }
    const call = this.platform.listCall(channel, this.support.key(channel), tasks);
    let answer: UpstreamJson;
    try {
      answer = await this.support.callJson(channel, call.path, call.headers, call.body, this.timeoutMs);
    } catch (error) {
      this.logger.warn(`polling channel ${channelId} failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const items = answer.status === 200 ? this.platform.itemsOf(answer) : undefined;
    if (!items) {
      this.logger.warn(`polling channel ${channelId}: status ${answer.status}, no task list`);
      return;
    }
    const byId = new Map(tasks.map((task) => [this.platform.upstreamId(task), task]));
    for (const item of items) {
      if (!isRecord(item)) continue;
      const task = byId.get(this.platform.itemId(item));
      if (task) await this.apply(task, this.platform.changesFrom(task, item));
    }
  }

  /** One task that cannot be written (its refund refused) must not hold up the others: it is logged and retried next round. */
  private async apply(task: T, next: C): Promise<void> {
    await this.write(task, next).catch((error: Error) => this.logger.error(`updating task ${this.platform.upstreamId(task)} failed: ${error.message}`));
  }

  private async write(task: T, next: C): Promise<void> {
    const before = this.platform.currentState(task);
    if ((Object.keys(next) as (keyof C)[]).every((key) => next[key] === before[key])) return;
    const claim = async (manager: EntityManager) => {
      const result = await manager
        .createQueryBuilder()
        .update(this.tasks.target)
        .set({ ...next, ...this.platform.stamp?.() } as never)
        .where('id = :id AND status = :status AND progress = :progress', { id: task.id, status: task.status, progress: task.progress })
        .execute();
      return (result.affected ?? 0) > 0;
    };
    const failsNow = next.status === 'FAILURE' && task.status !== 'FAILURE';
    const won = failsNow ? await this.billing.refundFailedTask(task, this.failure(task, next), claim) : await claim(this.tasks.manager);
    if (won) this.afterChange({ ...task, ...next });
  }

  private failure(task: T, next: C): TaskFailure {
    const reason = typeof next.fail_reason === 'string' ? next.fail_reason : '';
    return { platform: this.platform.platform, model: this.platform.modelOf(task), taskId: this.platform.upstreamId(task), reason };
  }
}
