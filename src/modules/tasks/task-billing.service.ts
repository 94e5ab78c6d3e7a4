import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { Transactions } from '../../database/transactions';
import { nowSeconds } from '../../database/columns';
import { queryAnyDialect } from '../../database/dialect';
import { mediaQuota, preConsumeQuotaFor, type MediaCharge } from '../billing/billing-formula';
import { BudgetExceededError, BudgetWindowService } from '../billing/budget-window.service';
import { InsufficientQuotaError, QuotaHold, QuotaLedgerService } from '../billing/quota-ledger.service';
import { SettlementBatcherService } from '../billing/settlement-batcher.service';
import { LOG_TYPE_CONSUME, LOG_TYPE_SYSTEM } from '../logs/entities/log.entity';
import { logText, logTextColumns, type LogText } from '../logs/log-text';
import { OptionsService } from '../options/options.service';
import { PricingService } from '../pricing/pricing.service';
import { TokenCacheService } from '../relay/caches/token-cache.service';
import { UserCacheService } from '../relay/caches/user-cache.service';
import type { RelayChannel } from '../relay/caches/relay-channel';
import { budgetHolders, type RelayCaller } from '../relay/relay-caller';
import { budgetRefusal } from '../relay/stages/billing-hold';
import { RelayError } from '../relay/relay-error';
import { QUOTA_TYPE_PER_CALL } from '../pricing/pricing.wire';

/** Whose upstream runs a task, as the log rows name it. */
export type TaskPlatform = 'Midjourney' | 'Suno';

/** The fixed price of one task submit, held before the upstream sees it. */
export interface TaskCharge {
  caller: RelayCaller;
  platform: TaskPlatform;
  /** The price's model name: mj_imagine, suno_music, … */
  model: string;
  quota: number;
  modelPrice: number;
  groupRatio: number;
  hold: QuotaHold;
  /** Set when TaskActionPrices priced the action (one call at its price). */
  media?: MediaCharge;
}

/** A task action as TaskActionPrices names it. */
export interface TaskAction {
  platform: string;
  action: string;
}

/** The columns of a task row that say who pays and what was taken: user, token, channel and charge. */
export function taskOwnerColumns(caller: RelayCaller, channel: RelayChannel, charge: TaskCharge): ChargedTask {
  return { user_id: caller.user.id, token_id: caller.token?.id ?? 0, token_quota: charge.hold.fromToken, channel_id: channel.id, quota: charge.quota };
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

export interface ChargedTask {
  user_id: number;
  token_id: number;
  token_quota: number;
  channel_id: number;
  quota: number;
}

/**
 * Billing of asynchronous tasks through the ledger: the price is held at submit, settled
 * with a consume log row when the upstream accepts, given back when it refuses, and refunded
 * with a system log row when the task fails later. Every move goes through the settlement
 * batcher, so the balance change and its log row land in one transaction.
 */
@Injectable()
export class TaskBillingService {
  constructor(
    private readonly pricing: PricingService,
    private readonly options: OptionsService,
    private readonly ledger: QuotaLedgerService,
    private readonly settlements: SettlementBatcherService,
    private readonly tokens: TokenCacheService,
    private readonly users: UserCacheService,
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly budgets: BudgetWindowService,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
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
    const token = caller.token;
    try {
      const hold = await this.ledger.preConsumeQuota(token?.id ?? 0, token !== null && !token.unlimitedQuota, caller.user.id, quota, budgetHolders(caller));
      if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, -hold.fromToken);
      if (hold.fromUser) this.users.adjustQuota(caller.user.id, -hold.fromUser);
      return { caller, platform, model, quota, modelPrice, groupRatio, hold, media };
    } catch (error) {
      if (error instanceof BudgetExceededError) throw budgetRefusal(error, quota, this.budgets.nowSeconds());
      if (error instanceof InsufficientQuotaError) {
        const whose = error.holder === 'token' ? 'This API key' : 'Your account';
        throw new RelayError('insufficient_quota', `${whose} does not have enough quota for this task (needs ${quota})`, 403);
      }
      throw error;
    }
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
    const { caller, hold } = charge;
    this.settlements.enqueue({
      hold,
      tokenLimited: hold.fromToken > 0,
      quota: charge.quota,
      channelId: channel.id,
      success: true,
      log: {
        user_id: caller.user.id,
        created_at: nowSeconds(),
        type: LOG_TYPE_CONSUME,
        username: caller.user.username,
        token_name: caller.token?.name ?? '',
        token_id: caller.token?.id ?? 0,
        model_name: charge.model,
        quota: charge.quota,
        prompt_tokens: 0,
        completion_tokens: 0,
        use_time: 0,
        is_stream: false,
        channel_id: channel.id,
        channel_name: channel.name,
        group: caller.group,
        ip: caller.ip,
        ...logTextColumns(logText('task_charged', { modelPrice: charge.modelPrice, groupRatio: charge.groupRatio, taskId }), {
          model_price: charge.modelPrice,
          group_ratio: charge.groupRatio,
          task_id: taskId,
          request_path: requestPath,
          ...(charge.media ? { media_price: charge.media } : {}),
          admin_info: { use_channel: [channel.id] },
        }),
      },
    });
  }

  /** The submit failed (refused, unreachable, or a bad answer): the hold comes back whole, and a log row says so. */
  giveBack(charge: TaskCharge, channelId: number, failure: SubmitFailure): void {
    const { caller, hold } = charge;
    if (hold.fromToken === 0 && hold.fromUser === 0) return;
    this.settlements.enqueue({
      hold,
      tokenLimited: hold.fromToken > 0,
      quota: 0,
      channelId,
      success: false,
      log: this.systemLog(caller.user.id, caller.user.username, caller.token?.name ?? '', caller.token?.id ?? 0, charge.model, channelId, hold.fromUser, giveBackText(charge.platform, hold.fromUser, failure)),
    });
    if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, hold.fromToken);
    if (hold.fromUser) this.users.adjustQuota(caller.user.id, hold.fromUser);
  }

  /**
   * A charged task failed upstream: `claim` (the task's conditional move to FAILURE) and the
   * refund commit in one transaction, so overlapping pollers, or a crash between the two,
   * can neither refund twice nor lose the refund. The quota goes back to the user and (as
   * far as it came from there) the token, and leaves the used totals. Answers whether the
   * claim won.
   */
  async refundFailedTask(task: ChargedTask, failure: TaskFailure, claim: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    if (task.quota <= 0) return this.transactions.run(claim);
    const key = this.dataSource.driver.escape('key');
    const [row] = await queryAnyDialect<{ username?: string; token_name?: string | null; token_key?: string | null }>(
      this.dataSource,
      `SELECT u.username AS username, t.name AS token_name, t.${key} AS token_key FROM users u LEFT JOIN tokens t ON t.id = ? WHERE u.id = ?`,
      [task.token_id, task.user_id],
    );
    const record = row ?? {};
    const refunded = await this.ledger.applyDelta({
      userId: task.user_id,
      username: record.username ?? '',
      reason: 'refund',
      quota: task.quota,
      text: failure.reason
        ? logText('task_failed_refunded_because', { platform: failure.platform, taskId: failure.taskId, quota: task.quota, detail: failure.reason })
        : logText('task_failed_refunded', { platform: failure.platform, taskId: failure.taskId, quota: task.quota }),
      claim,
      reversal: { tokenId: task.token_id, tokenName: record.token_name ?? '', tokenRemain: task.token_quota, channelId: task.channel_id, modelName: failure.model, other: { task_id: failure.taskId } },
    });
    // The cache is keyed by the key in the clear; the row stores it encrypted.
    if (refunded && task.token_quota > 0 && record.token_key) this.tokens.adjustRemainQuota(this.secretBox.decrypt(record.token_key), task.token_quota);
    return refunded;
  }

  private systemLog(userId: number, username: string, tokenName: string, tokenId: number, model: string, channelId: number, quota: number, text: LogText) {
    return {
      user_id: userId,
      created_at: nowSeconds(),
      type: LOG_TYPE_SYSTEM,
      username,
      token_name: tokenName,
      token_id: tokenId,
      model_name: model,
      quota,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: false,
      channel_id: channelId,
      channel_name: '',
      group: '',
      ip: '',
      ...logTextColumns(text, { refund: true }),
    };
  }
}
