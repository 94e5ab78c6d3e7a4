import { Injectable } from '@nestjs/common';
import { BudgetExceededError, BudgetWindowService } from '../../billing/budget-window.service';
import { InsufficientQuotaError, QuotaHold, QuotaLedgerService } from '../../billing/quota-ledger.service';
import { SettlementBatcherService, type Settlement } from '../../billing/settlement-batcher.service';
import { TokenCacheService } from '../caches/token-cache.service';
import { UserCacheService } from '../caches/user-cache.service';
import { budgetHolders, type RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';

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
    this.billing.finish(this.caller, this.hold, { hold: this.hold, tokenLimited: this.tokenLimited, quota, channelId, log, success: true });
  }

  /** Gives back exactly what the hold took. */
  refund(): void {
    if (this.end()) return;
    if (this.hold.fromToken === 0 && this.hold.fromUser === 0) return;
    this.billing.finish(this.caller, this.hold, { hold: this.hold, tokenLimited: this.hold.fromToken > 0, quota: 0, channelId: 0, success: false });
  }

  private end(): boolean {
    const wasEnded = this.ended;
    this.ended = true;
    return wasEnded;
  }
}

/** The 429 of a full window: which window, when it resets, and Retry-After until then. */
export function budgetRefusal(error: BudgetExceededError, amount: number, now: number): RelayError {
  const { take } = error;
  const whose = take.kind === 'token' ? 'This API key' : 'Your account';
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
   * Holds `amount` from the caller's token and user and counts it in their budget windows, or
   * refuses: 403 when either has too little, 429 budget_exceeded when a window would pass its quota.
   */
  async hold(caller: RelayCaller, amount: number): Promise<BillingHold> {
    const token = caller.token;
    const tokenLimited = token !== null && !token.unlimitedQuota;
    try {
      const hold = await this.ledger.preConsumeQuota(token?.id ?? 0, tokenLimited, caller.user.id, amount, budgetHolders(caller));
      if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, -hold.fromToken);
      if (hold.fromUser) this.users.adjustQuota(caller.user.id, -hold.fromUser);
      return new BillingHold(caller, hold, this);
    } catch (error) {
      if (error instanceof BudgetExceededError) throw budgetRefusal(error, amount, this.budgets.nowSeconds());
      if (error instanceof InsufficientQuotaError) {
        const whose = error.holder === 'token' ? 'This API key' : 'Your account';
        throw new RelayError('insufficient_quota', `${whose} does not have enough quota for this request (needs ${amount})`, 403);
      }
      throw error;
    }
  }

  /** Queues the settlement and moves the cached balances by what the hold took minus what is charged. */
  finish(caller: RelayCaller, hold: QuotaHold, settlement: Settlement): void {
    this.settlements.enqueue(settlement);
    if (settlement.tokenLimited) this.tokens.adjustRemainQuota(caller.tokenKey, hold.fromToken - settlement.quota);
    this.users.adjustQuota(caller.user.id, hold.fromUser - settlement.quota);
  }
}
