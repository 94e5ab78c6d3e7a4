import { Injectable } from '@nestjs/common';
import { BudgetExceededError, BudgetWindowService } from '../../billing/budget-window.service';
import { heldAmount, InsufficientQuotaError, QuotaHold, QuotaLedgerService, type RecordedCharge } from '../../billing/quota-ledger.service';
import { SettlementBatcherService, type Settlement } from '../../billing/settlement-batcher.service';
import { LOG_TYPE_SYSTEM } from '../../logs/entities/log.entity';
import { logTextColumns, type LogText } from '../../logs/log-text';
import { TokenCacheService } from '../caches/token-cache.service';
import { UserCacheService, type CachedSubscription } from '../caches/user-cache.service';
import { budgetHolders, type RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';
import { callerLogRow } from './consume-log';

/**
 * Quota held for one relay request, and the only way to end it: `settle` charges what the
 * request cost (giving back the rest), `refund` gives it all back. Either happens once. It
 * wraps the billing ledger, so the ledger's internals can change beneath it, and keeps the
 * relay's cached balances in step.
 */
export class BillingHold {
  private ended = false;

  constructor(
    private readonly caller: RelayCaller,
    private readonly hold: QuotaHold,
    private readonly billing: RelayBillingService,
  ) {}

  /** Whether the token's own quota moves (false for unlimited and playground tokens). */
  get tokenLimited(): boolean {
    return this.caller.token !== null && !this.caller.token.unlimitedQuota;
  }

  /** Charges `quota` (and writes its log row), giving back what the hold took beyond it. */
  settle(quota: number, channelId: number, log: Settlement['log']): void {
    if (this.end()) return;
    // A draw names its subscription in the row's `other` (the logs page filters by the column the batcher writes).
    if (log && this.hold.subscriptionId && log.other?.startsWith('{')) log.other = `{"subscription_id":${this.hold.subscriptionId},${log.other.slice(1)}`;
    this.billing.finish(this.caller, this.hold, { hold: this.hold, tokenLimited: this.tokenLimited, quota, channelId, log, success: true });
  }

  /**
   * Gives back exactly what the hold took. With a `note` (the task relays say why a submit's hold
   * came back), a system log row tells the user so; its quota is 0, as the hold was never logged,
   * so its return moves the logged balance by nothing (the amount is in the text).
   */
  refund(note?: RefundNote): void {
    if (this.end()) return;
    if (this.hold.fromToken === 0 && heldAmount(this.hold) === 0) return;
    const log = note && this.noteRow(note);
    this.billing.finish(this.caller, this.hold, { hold: this.hold, tokenLimited: this.hold.fromToken > 0, quota: 0, channelId: 0, success: false, log });
  }

  /**
   * What a charge that outlives this hold (a task, refunded if it fails later, perhaps by another
   * process) must record to be refunded through QuotaLedgerService.refundRecordedCharge: the
   * payer's side of the hold, with the charge's amount, channel and model.
   */
  recorded(quota: number, channelId: number, modelName: string): RecordedCharge {
    const { hold } = this;
    return { userId: hold.userId, tokenId: hold.tokenId, fromToken: hold.fromToken, subscriptionId: hold.subscriptionId ?? 0, channelId, modelName, quota };
  }

  private noteRow(note: RefundNote): Settlement['log'] {
    const { subscriptionId } = this.hold;
    return callerLogRow(this.caller, {
      type: LOG_TYPE_SYSTEM,
      model_name: note.model,
      quota: 0,
      channel_id: note.channelId,
      channel_name: '',
      group: '',
      ip: '',
      ...logTextColumns(note.text, { refund: true, refunded_hold: heldAmount(this.hold), ...(subscriptionId ? { subscription_id: subscriptionId } : {}) }),
    });
  }


  private end(): boolean {
    const wasEnded = this.ended;
    this.ended = true;
    return wasEnded;
  }
}

/** Why a hold came back, for its log row: the text, and the model and channel of the call. */
export interface RefundNote {
  text: LogText;
  model: string;
  channelId: number;
}

/** The 429 of a full window: which window, when it resets, and Retry-After until then. */
export function budgetRefusal(error: BudgetExceededError, amount: number, now: number): RelayError {
  const { take } = error;
  const whose = take.kind === 'token' ? 'This API key' : take.kind === 'sub' ? `Your subscription #${take.holderId}` : 'Your account';
  const resets = new Date(take.resetsAt * 1000).toISOString();
  const refusal = new RelayError('budget_exceeded', `${whose} has reached its ${take.period} budget of ${take.quota} (this request needs ${amount}); the window resets at ${resets}`, 429);
  refusal.retryAfterSeconds = Math.max(1, take.resetsAt - now);
  return refusal;
}

/** Takes quota holds for relay requests through the ledger. */
@Injectable()
export class RelayBillingService {
  constructor(
    private readonly ledger: QuotaLedgerService,
    private readonly settlements: SettlementBatcherService,
    private readonly tokens: TokenCacheService,
    private readonly users: UserCacheService,
    private readonly budgets: BudgetWindowService,
  ) {}

  /**
   * Holds `amount` for a call of `model` and counts it in the budget windows, or refuses: 403
   * when the token or the payer has too little, 429 budget_exceeded when a window would pass.
   *
   * The payer: the caller's active subscriptions that cover the call (its model and group), the
   * soonest to expire first, each within its allowance and windows; when none of them can take
   * it, the wallet, but only if one of those plans allows falling back to it. With no
   * subscription covering the call, the wallet, as always. The token's cap and windows and the
   * user's windows count every call, whoever pays.
   */
  async hold(caller: RelayCaller, amount: number, model: string): Promise<BillingHold> {
    const covering = caller.user.subscriptions.length > 0 ? this.coveringSubscriptions(caller, model) : NO_SUBSCRIPTIONS;
    let refusal: unknown;
    for (const subscription of covering) {
      try {
        return await this.take(caller, amount, subscription);
      } catch (error) {
        // The plan cannot take this call (its allowance, one of its windows, or it expired meanwhile): try the next payer.
        if (!isPlanRefusal(error)) throw this.relayRefusal(error, amount);
        refusal ??= error;
      }
    }
    if (refusal && !covering.some((subscription) => subscription.allowWalletFallback)) throw this.relayRefusal(refusal, amount);
    try {
      return await this.take(caller, amount);
    } catch (error) {
      throw this.relayRefusal(error, amount);
    }
  }

  /** Queues the settlement and moves the cached balances by what the hold took minus what is charged. */
  finish(caller: RelayCaller, hold: QuotaHold, settlement: Settlement): void {
    this.settlements.enqueue(settlement);
    if (settlement.tokenLimited) this.tokens.adjustRemainQuota(caller.tokenKey, hold.fromToken - settlement.quota);
    if (!hold.subscriptionId) this.users.adjustQuota(caller.user.id, hold.fromUser - settlement.quota);
  }

  private async take(caller: RelayCaller, amount: number, subscription?: CachedSubscription): Promise<BillingHold> {
    const token = caller.token;
    const tokenLimited = token !== null && !token.unlimitedQuota;
    let budgets = budgetHolders(caller);
    if (subscription?.windows) budgets = [...budgets, { kind: 'sub', id: subscription.id, windows: subscription.windows }];
    const hold = await this.ledger.preConsumeQuota(token?.id ?? 0, tokenLimited, caller.user.id, amount, budgets, subscription?.id ?? 0);
    if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, -hold.fromToken);
    if (hold.fromUser) this.users.adjustQuota(caller.user.id, -hold.fromUser);
    return new BillingHold(caller, hold, this);
  }

  /** The unexpired subscriptions whose model list and group cover this call, in draw order. */
  private coveringSubscriptions(caller: RelayCaller, model: string): CachedSubscription[] {
    const now = this.budgets.nowSeconds();
    return caller.user.subscriptions.filter(
      (subscription) => subscription.expiresAt > now && (subscription.group === '' || subscription.group === caller.group) && (subscription.models === null || subscription.models.has(model)),
    );
  }

  private relayRefusal(error: unknown, amount: number): unknown {
    if (error instanceof BudgetExceededError) return budgetRefusal(error, amount, this.budgets.nowSeconds());
    if (error instanceof InsufficientQuotaError) {
      const whose = error.holder === 'token' ? 'This API key' : error.holder === 'subscription' ? 'Your subscription' : 'Your account';
      return new RelayError('insufficient_quota', `${whose} does not have enough quota for this request (needs ${amount})`, 403);
    }
    return error;
  }
}

const NO_SUBSCRIPTIONS: readonly CachedSubscription[] = [];

/** A refusal by the subscription itself, after which the next payer may be tried. */
function isPlanRefusal(error: unknown): boolean {
  return (error instanceof InsufficientQuotaError && error.holder === 'subscription') || (error instanceof BudgetExceededError && error.take.kind === 'sub');
}
