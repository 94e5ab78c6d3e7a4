import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { mediaQuota, preConsumeQuotaFor, type MediaCharge } from '../billing/billing-formula';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { LOG_TYPE_CONSUME } from '../logs/entities/log.entity';
import { logText, logTextColumns, type LogText } from '../logs/log-text';
import { OptionsService } from '../options/options.service';
import { PricingService } from '../pricing/pricing.service';
import type { RelayChannel } from '../relay/caches/relay-channel';
import type { RelayCaller } from '../relay/relay-caller';
import { BillingHold, RelayBillingService } from '../relay/stages/billing-hold';
import { callerLogRow } from '../relay/stages/consume-log';
import { RelayError } from '../relay/relay-error';
import { QUOTA_TYPE_PER_CALL } from '../pricing/pricing.wire';

/** Whose upstream runs a task, as the log rows name it. */
export type TaskPlatform = 'Midjourney' | 'Suno';

/** The fixed price of one task submit, held (through the relay's BillingHold) before the upstream sees it. */
export interface TaskCharge {
  caller: RelayCaller;
  platform: TaskPlatform;
  /** The price's model name: mj_imagine, suno_music, … */
  model: string;
  quota: number;
  modelPrice: number;
  groupRatio: number;
  billing: BillingHold;
  /** Set when TaskActionPrices priced the action (one call at its price). */
  media?: MediaCharge;
}

/** A task action as TaskActionPrices names it. */
export interface TaskAction {
  platform: string;
  action: string;
}

/** The columns of a task row that say who pays and what was taken: user, token, subscription, channel and charge. */
export function taskOwnerColumns(channel: RelayChannel, charge: TaskCharge): ChargedTask {
  const recorded = charge.billing.recorded(charge.quota, channel.id, charge.model);
  return { user_id: recorded.userId, token_id: recorded.tokenId, token_quota: recorded.fromToken, subscription_id: recorded.subscriptionId, channel_id: channel.id, quota: charge.quota };
}

/** Why a charged task is refunded: its price's model, the upstream's task id and its fail reason ('' when it gave none), for the log row. */
export interface TaskFailure {
  platform: TaskPlatform;
  model: string;
  taskId: string;
  reason: string;
}

/**
 * Why a submit's hold comes back: the upstream call failed (`submit`), the upstream refused the
 * task (`refused`), or the accepted task could not be recorded (`record`); `detail` is what the
 * upstream or the relay said, as it came ('' when nothing).
 */
export interface SubmitFailure {
  step: 'submit' | 'refused' | 'record';
  detail: string;
}

/** The log text of a hold given back: the upstream's or relay's own words, when there are any, go in as `detail`. */
function giveBackText(platform: TaskPlatform, quota: number, failure: SubmitFailure): LogText {
  if (failure.step === 'refused') return logText('task_submit_refused', { platform, quota, detail: failure.detail });
  const [plain, because] = failure.step === 'submit' ? (['task_submit_failed', 'task_submit_failed_because'] as const) : (['task_not_recorded', 'task_not_recorded_because'] as const);
  return failure.detail ? logText(because, { platform, quota, detail: failure.detail }) : logText(plain, { platform, quota });
}

/** A task row's record of its charge (see ChargedTaskColumns), from which a failed task is refunded. */
export interface ChargedTask {
  user_id: number;
  token_id: number;
  token_quota: number;
  subscription_id: number;
  channel_id: number;
  quota: number;
}

/**
 * Billing of asynchronous tasks: the price of an action is this service's; the money moves the
 * relay's way. The price is held through RelayBillingService (so a subscription covering the
 * model pays first, as for chat calls), settled with a consume log row when the upstream accepts
 * the task, given back when it refuses, and, when the task fails later, refunded by the ledger
 * from what the task row recorded of the hold.
 */
@Injectable()
export class TaskBillingService {
  constructor(
    private readonly pricing: PricingService,
    private readonly options: OptionsService,
    private readonly relayBilling: RelayBillingService,
    private readonly ledger: QuotaLedgerService,
  ) {}

  /**
   * Prices the action at its TaskActionPrices entry when it has one, else at its model's fixed
   * price, × the group ratio, and holds that much.
   */
  async hold(caller: RelayCaller, model: string, platform: TaskPlatform, action: TaskAction): Promise<TaskCharge> {
    const groupRatio = this.pricing.groupRatio(caller.user.group, caller.group).ratio;
    const actionPrice = this.options.get('TaskActionPrices')[action.platform]?.[action.action];
    const media: MediaCharge | undefined = actionPrice === undefined ? undefined : { unit: 'call', count: 1, price: actionPrice, platform: action.platform, action: action.action };
    const price = this.pricing.modelPricing(model);
    if (!media && price.quota_type !== QUOTA_TYPE_PER_CALL && !this.options.get('SelfUseModeEnabled') && !caller.user.acceptUnsetModelRatio) {
      throw new RelayError('model_price_not_set', `The model ${model} has no price set; ask the administrator to set its price`, 403);
    }
    const modelPrice = media ? media.price : price.quota_type === QUOTA_TYPE_PER_CALL ? price.model_price : 0;
    const quota = media
      ? mediaQuota(media, groupRatio, this.pricing.quotaPerUnit())
      : preConsumeQuotaFor({ quotaType: QUOTA_TYPE_PER_CALL, modelPrice, groupRatio, quotaPerUnit: this.pricing.quotaPerUnit(), modelRatio: 0, completionRatio: 1, cacheRatio: 1 }, 0, 0, 0);
    const billing = await this.relayBilling.hold(caller, quota, model);
    return { caller, platform, model, quota, modelPrice, groupRatio, billing, media };
  }

  /**
   * Runs one step of a submit (the upstream call, recording the task) under the hold: if it
   * throws, the hold comes back whole, with a log row naming the step (and a relay error's
   * message; other errors' texts are not for users), before the error goes on.
   */
  async underHold<R>(charge: TaskCharge, channelId: number, step: 'submit' | 'record', run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (error) {
      this.giveBack(charge, channelId, { step, detail: error instanceof RelayError ? error.message : '' });
      throw error;
    }
  }

  /** The upstream accepted the task: the hold becomes the charge, with its consume log row. */
  settle(charge: TaskCharge, channel: RelayChannel, taskId: string, requestPath: string): void {
    const { caller } = charge;
    const text = logText('task_charged', { modelPrice: charge.modelPrice, groupRatio: charge.groupRatio, taskId });
    const detail = {
      model_price: charge.modelPrice,
      group_ratio: charge.groupRatio,
      task_id: taskId,
      request_path: requestPath,
      ...(charge.media ? { media_price: charge.media } : {}),
      admin_info: { use_channel: [channel.id] },
    };
    const log = callerLogRow(caller, {
      type: LOG_TYPE_CONSUME,
      model_name: charge.model,
      quota: charge.quota,
      channel_id: channel.id,
      channel_name: channel.name,
      group: caller.group,
      ip: caller.ip,
      ...logTextColumns(text, detail),
    });
    charge.billing.settle(charge.quota, channel.id, log);
  }

  /** The submit failed (refused, unreachable, or a bad answer): the hold comes back whole, and a log row says so. */
  giveBack(charge: TaskCharge, channelId: number, failure: SubmitFailure): void {
    charge.billing.refund({ text: giveBackText(charge.platform, charge.quota, failure), model: charge.model, channelId });
  }

  /**
   * A charged task failed upstream: `claim` (the task's conditional move to FAILURE) and the
   * refund commit in one transaction, so overlapping pollers, or a crash between the two, can
   * neither refund twice nor lose the refund. The ledger rebuilds the give-back from the task
   * row: the quota goes back to the subscription or the wallet it was drawn from and (as far as
   * it came from there) to the token, and leaves the used totals. Answers whether the claim won.
   */
  refundFailedTask(task: ChargedTask, failure: TaskFailure, claim: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    const text = failure.reason
      ? logText('task_failed_refunded_because', { platform: failure.platform, taskId: failure.taskId, quota: task.quota, detail: failure.reason })
      : logText('task_failed_refunded', { platform: failure.platform, taskId: failure.taskId, quota: task.quota });
    return this.ledger.refundRecordedCharge(
      { userId: task.user_id, tokenId: task.token_id, fromToken: task.token_quota, subscriptionId: task.subscription_id, channelId: task.channel_id, modelName: failure.model, quota: task.quota },
      { text, other: { task_id: failure.taskId }, claim },
    );
  }
}
