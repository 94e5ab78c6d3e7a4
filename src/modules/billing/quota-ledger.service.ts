import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { nowSeconds } from '../../database/columns';
import { queryAnyDialect } from '../../database/dialect';
import { GuardedGroup, GuardedUpdate, inLockOrder, RawSql, Statement } from '../../database/raw-sql';
import { Transactions } from '../../database/transactions';
import { LOG_TYPE_MANAGE, LOG_TYPE_SYSTEM, LOG_TYPE_TOPUP } from '../logs/entities/log.entity';
import { LogWriter } from '../logs/log-writer';
import { logTextColumns, type LogText } from '../logs/log-text';
import { BudgetExceededError, BudgetWindowService, type BudgetHolder, type WindowTake } from './budget-window.service';
import { HoldJournalService } from './hold-journal.service';

/** The token, the user (the wallet) or the subscription (a plan's allowance) whose quota ran short. */
export type QuotaHolder = 'token' | 'user' | 'subscription';

export class InsufficientQuotaError extends Error {
  constructor(readonly holder: QuotaHolder) {
    super(`${holder} quota is insufficient`);
    this.name = 'InsufficientQuotaError';
  }
}

/** The one conditional UPDATE per holder (parameters: amount, id, amount; a subscription's also now, after the id), and how to give the amount back. */
const HOLD_SQL: Record<QuotaHolder, { take: string; giveBack: string }> = {
  token: {
    take: 'UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?',
    giveBack: 'UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?',
  },
  user: {
    take: 'UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?',
    giveBack: 'UPDATE users SET quota = quota + ? WHERE id = ?',
  },
  // Active, not expired at the call's time, and within the total allowance when the plan has one (0: none).
  subscription: {
    take: 'UPDATE subscriptions SET used = used + ? WHERE id = ? AND status = 1 AND expires_at > ? AND (total_quota = 0 OR used + ? <= total_quota)',
    giveBack: 'UPDATE subscriptions SET used = used - ? WHERE id = ?',
  },
};

/** What pre-consumption took, to be settled or given back exactly. */
export interface QuotaHold {
  /** Its row in the hold journal (quota_holds), shared with the holds of its batch for the same token and user; absent when nothing was taken. */
  journalId?: string;
  tokenId: number;
  /** Taken from the token's remain_quota (0 for unlimited and playground tokens). */
  fromToken: number;
  userId: number;
  fromUser: number;
  /** Set when the hold draws from a subscription instead of the wallet: fromUser is then 0. */
  subscriptionId?: number;
  /** Taken from the subscription's allowance (its `used`). */
  fromPlan?: number;
  /** The budget windows the hold counts against, each by what it held (absent when none is set). */
  windows?: readonly WindowTake[];
}

/** What a hold took from its payer: the subscription's share, or the wallet's. */
export function heldAmount(hold: QuotaHold): number {
  return hold.fromUser + (hold.fromPlan ?? 0);
}

interface PendingHold {
  hold: QuotaHold;
  amount: number;
  holders: QuotaHolder[];
  windows: readonly WindowTake[];
  resolve(hold: QuotaHold): void;
  reject(error: unknown): void;
}

/**
 * Why a balance moves outside the relay. Each reason writes its log row with a fixed type:
 * top-ups and redeemed codes are type 1, admin adjustments type 3, the rest type 4 (system).
 */
export type LedgerReason = 'top_up' | 'redeem' | 'admin_adjustment' | 'invite_reward' | 'new_user' | 'aff_transfer' | 'refund' | 'plan_purchase';

const LOG_TYPE_FOR: Record<LedgerReason, number> = {
  top_up: LOG_TYPE_TOPUP,
  redeem: LOG_TYPE_TOPUP,
  admin_adjustment: LOG_TYPE_MANAGE,
  invite_reward: LOG_TYPE_SYSTEM,
  new_user: LOG_TYPE_SYSTEM,
  aff_transfer: LOG_TYPE_SYSTEM,
  refund: LOG_TYPE_SYSTEM,
  plan_purchase: LOG_TYPE_TOPUP,
};

/**
 * One movement of a user's money, applied as deltas (never as a value read earlier).
 * `quota` moves users.quota and is the log row's quota; `affQuota` moves the invitation
 * balance (aff_quota, and aff_history_quota when positive), noted in the row's `other`.
 */
export interface BalanceMovement {
  userId: number;
  username: string;
  reason: LedgerReason;
  quota: number;
  affQuota?: number;
  /** What the log row says (see LogText: a message key for the console, and `content` in Chinese). */
  text: LogText;
  /**
   * Runs first, inside the same transaction: the conditional update that makes the movement
   * happen once (a code 1→3, an order pending→success). Answering false moves nothing.
   */
  claim?: (manager: EntityManager) => Promise<boolean>;
  /** Only apply when the balance covers a negative delta (aff transfer, a refund taken back). */
  requireCovered?: boolean;
  /** A refund of spending already settled (a task that failed after it was charged): see SpendingReversal. */
  reversal?: SpendingReversal;
  /** More fields of the log row's `other` (a plan purchase's plan and subscription). */
  other?: Record<string, unknown>;
  /** Runs last, inside the same transaction, with the log row's id: the audit row of an admin's change references it. */
  onLogged?: (logId: number, manager: EntityManager) => Promise<void>;
}

/**
 * What a refund of settled spending also undoes besides users.quota: the `quota` leaves the
 * user's and the token's used totals and the channel's, and `tokenRemain` goes back to the
 * token's remain_quota (0 when the token is unlimited and nothing was taken from it).
 */
export interface SpendingReversal {
  tokenId: number;
  tokenName: string;
  tokenRemain: number;
  channelId: number;
  modelName: string;
  /**
   * The subscription the spending was drawn from (0 or absent: the wallet). The quota then goes
   * back to the subscription's allowance (its `used`) instead of users.quota, and the log row
   * names the subscription, as the draw's consume row did.
   */
  subscriptionId?: number;
  /** Extra fields of the log row's `other` (the task id). */
  other?: Record<string, unknown>;
}

/**
 * What a charge that outlives its request records of its hold (a task row: see BillingHold.recorded),
 * so that it can be refunded later, by any process, without the hold: who paid, from which
 * token and subscription, how much, through which channel and model.
 */
export interface RecordedCharge {
  userId: number;
  tokenId: number;
  /** What the hold took from the token's remain_quota (0 for unlimited tokens). */
  fromToken: number;
  /** The subscription the charge was drawn from; 0 for the wallet. */
  subscriptionId: number;
  channelId: number;
  modelName: string;
  /** What was charged. */
  quota: number;
}

/** Why a recorded charge is refunded: the log row's text and extra `other` fields, and the exactly-once claim. */
export interface ChargeRefund {
  text: LogText;
  other?: Record<string, unknown>;
  /** The conditional update that makes the refund happen once (a task's move to FAILURE); it commits with the refund or not at all. */
  claim: (manager: EntityManager) => Promise<boolean>;
}

/**
 * THE LEDGER: the only code that changes users.quota, used_quota, request_count, aff_quota,
 * aff_history_quota, tokens.remain_quota, used_quota and subscriptions.used (SettlementBatcherService is its
 * write-behind for the relay's settlements). Each movement's log row is written in its
 * transaction through LogWriter (with LOG_SQL_DSN, as an outbox row copied to the log database
 * after commit). How other modules use it:
 *
 *   - money in or out of a user (top-up, redeemed code, admin change, invite reward, aff
 *     transfer):  `applyDelta({ userId, username, reason, quota, text, claim? })` — one
 *     transaction with the log row; `claim` is the exactly-once guard.
 *   - a refund of spending already settled (a task that failed later):
 *     `refundRecordedCharge(recorded, { text, claim })`, from what the task row recorded of its
 *     hold (BillingHold.recorded) — the claim (the task's move to FAILURE), the wallet or the
 *     subscription it was drawn from, the used totals of user, token and channel, and the log
 *     row in one transaction (an `applyDelta` with a `reversal`).
 *   - a token's spending cap edited by its owner:  `adjustTokenLimit(tokenId, from, to)` —
 *     a delta, so spending that landed meanwhile is kept. The cap is not money: no log row.
 *   - the relay:  `preConsumeQuota(...)` before the call, then a Settlement queued on
 *     SettlementBatcherService (which settles or refunds the hold with the consume log row).
 *
 * Takes quota before an upstream call with one conditional UPDATE per holder, so concurrent
 * requests can never overdraw: the database decides, row by row.
 *
 * The holds asked for in one turn of the event loop, or while the batch before is being
 * written, go to the database together. They are first tried as one UPDATE per token and per
 * user for the summed amount: if every sum fits, so does each hold (amounts are positive), and
 * a batch of fifty holds costs a few statements instead of a hundred. If a sum does not fit,
 * the holds run one by one and the database decides which of them get through.
 */
@Injectable()
export class QuotaLedgerService {
  private pending: PendingHold[] = [];
  /**
   * A batch's transaction is running. At most one runs at a time: on MySQL and PostgreSQL,
   * batches run side by side would queue on the same hot rows (a busy token, its user), each
   * waiting for the one before to commit, so the holds asked for meanwhile wait and go in the
   * next batch instead, as one transaction.
   */
  private applying = false;
  /** Journal ids are this process's id (HoldJournalService.ownerId) and a counter: unique without a database round trip. */
  private journalCounter = 0;

  constructor(
    private readonly sql: RawSql,
    private readonly transactions: Transactions,
    private readonly cacheSync: CacheSyncService,
    private readonly holdJournal: HoldJournalService,
    private readonly budgets: BudgetWindowService,
    private readonly logWriter: LogWriter,
  ) {}

  /**
   * Applies one movement with its log row in one transaction (or inside the caller's, when a
   * manager is given: the caller then invalidates the user cache after commit). Answers false,
   * moving nothing, when the claim fails or a required cover is missing.
   */
  async applyDelta(movement: BalanceMovement, manager?: EntityManager): Promise<boolean> {
    if (!Number.isSafeInteger(movement.quota) || !Number.isSafeInteger(movement.affQuota ?? 0)) throw new Error('ledger amounts must be integers');
    if (manager) return this.applyInTransaction(movement, manager);
    const applied = await this.transactions.run((inner) => this.applyInTransaction(movement, inner));
    if (applied) await this.cacheSync.invalidate(CACHE_NAMES.users, String(movement.userId));
    return applied;
  }

  /**
   * Refunds a charge settled earlier, rebuilt from what was recorded of it (RecordedCharge): the
   * claim, the quota back to whoever paid (the wallet or the subscription) and to the token, out
   * of the used totals of user, token and channel, and the log row, in one transaction; so a
   * refund raced by another process, or cut by a crash, happens exactly once. Answers whether
   * the claim won. A charge of nothing only runs the claim.
   */
  async refundRecordedCharge(charge: RecordedCharge, refund: ChargeRefund): Promise<boolean> {
    if (charge.quota <= 0) return this.transactions.run(refund.claim);
    const [payer] = await this.sql.select<{ username?: string; token_name?: string | null; key_hash?: string | null }>(
      'SELECT u.username AS username, t.name AS token_name, t.key_hash AS key_hash FROM users u LEFT JOIN tokens t ON t.id = ? WHERE u.id = ?',
      [charge.tokenId, charge.userId],
    );
    const refunded = await this.applyDelta({
      userId: charge.userId,
      username: payer?.username ?? '',
      reason: 'refund',
      quota: charge.quota,
      text: refund.text,
      claim: refund.claim,
      reversal: {
        tokenId: charge.tokenId,
        tokenName: payer?.token_name ?? '',
        tokenRemain: charge.fromToken,
        channelId: charge.channelId,
        modelName: charge.modelName,
        subscriptionId: charge.subscriptionId,
        other: refund.other,
      },
    });
    if (refunded && charge.fromToken > 0 && payer?.key_hash) await this.cacheSync.invalidate(CACHE_NAMES.tokens, payer.key_hash);
    return refunded;
  }

  private async applyInTransaction(movement: BalanceMovement, manager: EntityManager): Promise<boolean> {
    if (movement.claim && !(await movement.claim(manager))) return false;
    const affQuota = movement.affQuota ?? 0;
    const { reversal } = movement;
    // A refund of a subscription's draw goes back to its allowance (reverseSpending), not to the wallet.
    const subscriptionId = reversal?.subscriptionId ?? 0;
    const toWallet = subscriptionId > 0 ? 0 : movement.quota;
    const guards: string[] = [];
    if (movement.requireCovered) guards.push('quota + :quota >= 0', 'aff_quota + :affQuota >= 0');
    const result = await manager
      .createQueryBuilder()
      .update('users')
      .set({
        quota: () => 'quota + :quota',
        used_quota: () => 'used_quota - :unspent',
        aff_quota: () => 'aff_quota + :affQuota',
        aff_history_quota: () => 'aff_history_quota + :affEarned',
      })
      .where(['id = :id', ...guards].join(' AND '), { id: movement.userId })
      .setParameters({ quota: toWallet, unspent: reversal ? movement.quota : 0, affQuota, affEarned: Math.max(0, affQuota) })
      .execute();
    if ((result.affected ?? 0) === 0) {
      // A failed claim already returned; here the user is missing or not covered: undo the claim too.
      if (movement.claim) throw new LedgerRefusedError();
      return false;
    }
    if (reversal) await this.reverseSpending(reversal, movement.quota, manager);
    const other: Record<string, unknown> = { reason: movement.reason, ...reversal?.other, ...movement.other };
    if (affQuota !== 0) other.aff_quota = affQuota;
    if (subscriptionId > 0) other.subscription_id = subscriptionId;
    const logId = await this.logWriter.insert(
      {
        ...logTextColumns(movement.text, other),
        type: LOG_TYPE_FOR[movement.reason],
        user_id: movement.userId,
        username: movement.username,
        quota: movement.quota,
        created_at: nowSeconds(),
        token_id: reversal?.tokenId ?? 0,
        token_name: reversal?.tokenName ?? '',
        model_name: reversal?.modelName ?? '',
        channel_id: reversal?.channelId ?? 0,
        subscription_id: subscriptionId,
      },
      manager,
    );
    if (movement.onLogged) await movement.onLogged(logId, manager);
    return true;
  }

  /** The subscription's, the token's and the channel's side of a refund of settled spending. */
  private async reverseSpending(reversal: SpendingReversal, quota: number, manager: EntityManager): Promise<void> {
    if (reversal.subscriptionId) {
      const result = await manager
        .createQueryBuilder()
        .update('subscriptions')
        .set({ used: () => 'used - :quota' })
        .where('id = :id', { id: reversal.subscriptionId, quota })
        .execute();
      // The subscription is gone: refuse, so the claim rolls back and the refund is tried again rather than lost.
      if ((result.affected ?? 0) === 0) throw new LedgerRefusedError();
    }
    if (reversal.tokenId > 0) {
      await queryAnyDialect(manager, 'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota - ? WHERE id = ?', [reversal.tokenRemain, quota, reversal.tokenId]);
    }
    if (reversal.channelId > 0) await queryAnyDialect(manager, 'UPDATE channels SET used_quota = used_quota - ? WHERE id = ?', [quota, reversal.channelId]);
  }

  /** A token's cap moved from what the editor saw to what it asked for, as a delta. */
  async adjustTokenLimit(tokenId: number, from: number, to: number): Promise<void> {
    if (from === to) return;
    await this.sql.runInTransaction([{ sql: 'UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?', parameters: [to - from, tokenId] }]);
  }

  /**
   * Takes `amount` from the token (unless `tokenId` is 0 or the token is unlimited) and from
   * the user, and counts it in the budget windows of `budgets` (the token's and the user's),
   * all or none: if the user has too little, or a window would pass its quota, nothing is
   * taken (InsufficientQuotaError, BudgetExceededError). The windows move in the same
   * transaction as the balances. A take refused because another instance rolled a window over
   * meanwhile is tried again in the new window.
   *
   * With `subscriptionId` the amount is drawn from that subscription's allowance instead of the
   * user's balance: only while it is active and unexpired at this moment, and within its total
   * (else InsufficientQuotaError('subscription')); its windows come in `budgets` as kind `sub`.
   */
  async preConsumeQuota(tokenId: number, tokenLimited: boolean, userId: number, amount: number, budgets: readonly BudgetHolder[] = [], subscriptionId = 0): Promise<QuotaHold> {
    if (budgets.length === 0 || amount <= 0) return this.queueHold(tokenId, tokenLimited, userId, amount, [], subscriptionId);
    for (let attempt = 1; ; attempt++) {
      const takes = await this.budgets.takesFor(budgets);
      try {
        return await this.queueHold(tokenId, tokenLimited, userId, amount, takes, subscriptionId);
      } catch (error) {
        if (!(error instanceof BudgetExceededError)) throw error;
        const refusal = attempt >= WINDOW_ATTEMPTS ? error : await this.budgets.confirmRefusal(error.take);
        if (refusal) throw refusal;
      }
    }
  }

  private queueHold(tokenId: number, tokenLimited: boolean, userId: number, amount: number, windows: readonly WindowTake[], subscriptionId: number): Promise<QuotaHold> {
    const hold: QuotaHold = { tokenId, fromToken: 0, userId, fromUser: 0 };
    if (subscriptionId > 0) {
      hold.subscriptionId = subscriptionId;
      hold.fromPlan = 0;
    }
    if (amount <= 0) return Promise.resolve(hold);
    const payer: QuotaHolder = subscriptionId > 0 ? 'subscription' : 'user';
    const holders: QuotaHolder[] = tokenId > 0 && tokenLimited ? ['token', payer] : [payer];
    if (windows.length > 0) hold.windows = windows;
    return new Promise((resolve, reject) => {
      this.pending.push({ hold, amount, holders, windows, resolve, reject });
      if (this.pending.length === 1 && !this.applying) setImmediate(() => void this.applyPending());
    });
  }

  /**
   * The journal rows for a batch's holds: one per token and user, for the sum of their holds
   * (a row per hold cost more than the rest of the settlement). Each hold notes its row; its
   * settlement subtracts it, and the row goes once nothing is left in it.
   */
  private journalRows(holds: QuotaHold[]): JournalRow[] {
    const rows = new Map<string, JournalRow>();
    for (const hold of holds) {
      const windows = journalWindows(hold.windows);
      // Holds of one token and user share a row only when they count in the same windows and draw from the same payer, which a crash refund gives back too.
      const subscriptionId = hold.subscriptionId ?? 0;
      const key = `${hold.tokenId}:${hold.userId}:${subscriptionId}:${windows ?? ''}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { id: `${this.holdJournal.ownerId}-${++this.journalCounter}`, tokenId: hold.tokenId, userId: hold.userId, subscriptionId, fromToken: 0, fromUser: 0, fromPlan: 0, windows }));
      row.fromToken += hold.fromToken;
      row.fromUser += hold.fromUser;
      row.fromPlan += hold.fromPlan ?? 0;
      hold.journalId = row.id;
    }
    return [...rows.values()];
  }

  /** Takes the holds asked for so far as one batch, then the ones asked for meanwhile as the next. */
  private async applyPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.applying = true;
    try {
      await this.applyBatch(batch);
    } finally {
      this.applying = false;
      if (this.pending.length > 0) setImmediate(() => void this.applyPending());
    }
  }

  /**
   * The batch's holds, tried first as one take per token and user for the summed amounts,
   * journaled as the summed rows. Only when a sum does not fit, a second transaction takes
   * them hold by hold, each that applies adding itself to its row. So the usual batch sends
   * the writer thread three statements rather than five per hold, whose copying between
   * threads cost more than the writes.
   */
  private async applyBatch(batch: PendingHold[]): Promise<void> {
    try {
      for (const item of batch) {
        if (item.holders.includes('token')) item.hold.fromToken = item.amount;
        if (item.hold.subscriptionId) item.hold.fromPlan = item.amount;
        else item.hold.fromUser = item.amount;
      }
      const rows = this.journalRows(batch.map((item) => item.hold));
      const now = nowSeconds();
      // A subscription's expiry is judged on the windows' clock, which tests can move.
      const callTime = this.budgets.nowSeconds();
      if (batch.length > 1) {
        const [failed] = await this.sql.applyGuarded([{ updates: combinedTakes(batch, callTime), record: journalInserts(this.sql, rows, now) }]);
        if (failed < 0) return batch.forEach((item) => item.resolve(item.hold));
      }
      const groups: GuardedGroup[] = batch.map((item) => ({
        updates: [...item.holders.map((holder) => guardedTake(holder, holderId(item.hold, holder), item.amount, callTime)), ...item.windows.map((take) => guardedWindowTake(take, item.amount))],
        record: [{ sql: this.sql.upsertAddingSql('quota_holds', JOURNAL_COLUMNS, 1, ['id'], ['from_token', 'from_user', 'from_plan']), parameters: journalValues(item.hold, now) }],
      }));
      const failures = await this.sql.applyGuarded(groups, batch.length === 1);
      batch.forEach((item, index) => {
        const failed = failures[index];
        if (failed >= item.holders.length) return item.reject(new BudgetExceededError(item.windows[failed - item.holders.length]));
        if (failed >= 0) return item.reject(new InsufficientQuotaError(item.holders[failed]));
        item.resolve(item.hold);
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}

/** One row of the hold journal: the holds of one token and user taken in one batch, summed. */
interface JournalRow {
  id: string;
  tokenId: number;
  userId: number;
  /** 0 for holds on the wallet. */
  subscriptionId: number;
  fromToken: number;
  fromUser: number;
  fromPlan: number;
  /** The budget windows its holds count in (journalWindows), or null. */
  windows: string | null;
}

/** How often a hold is tried against windows rolled over under it before it is refused. */
const WINDOW_ATTEMPTS = 3;

/** Thrown inside a claimed movement whose user row refused it, so the claim rolls back. */
export class LedgerRefusedError extends Error {
  constructor() {
    super('the balance movement was refused');
    this.name = 'LedgerRefusedError';
  }
}

const JOURNAL_INSERT_CHUNK = 100;
const JOURNAL_COLUMNS = ['id', 'token_id', 'user_id', 'from_token', 'from_user', 'created_at', 'windows', 'subscription_id', 'from_plan'];

/** The journal rows of the holds taken, written in the transaction that takes them (see HoldJournalService). */
function journalInserts(sql: RawSql, rows: JournalRow[], now: number): Statement[] {
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += JOURNAL_INSERT_CHUNK) {
    const chunk = rows.slice(start, start + JOURNAL_INSERT_CHUNK);
    statements.push({
      sql: sql.insertSql('quota_holds', JOURNAL_COLUMNS, chunk.length),
      parameters: chunk.flatMap((row) => [row.id, row.tokenId, row.userId, row.fromToken, row.fromUser, now, row.windows, row.subscriptionId, row.fromPlan]),
    });
  }
  return statements;
}

/** One hold's share of its journal row, in JOURNAL_COLUMNS order. */
function journalValues(hold: QuotaHold, now: number): unknown[] {
  return [hold.journalId, hold.tokenId, hold.userId, hold.fromToken, hold.fromUser, now, journalWindows(hold.windows), hold.subscriptionId ?? 0, hold.fromPlan ?? 0];
}

/** A journal row's windows as stored: `[[kind, holderId, period, windowStart], …]`, read back by HoldJournalService.refund. */
function journalWindows(windows: readonly WindowTake[] | undefined): string | null {
  if (!windows || windows.length === 0) return null;
  return JSON.stringify(windows.map((take) => [take.kind, take.holderId, take.period, take.windowStart]));
}

function holderId(hold: QuotaHold, holder: QuotaHolder): number {
  if (holder === 'subscription') return hold.subscriptionId ?? 0;
  return holder === 'token' ? hold.tokenId : hold.userId;
}

function guardedTake(holder: QuotaHolder, id: number, amount: number, callTime: number): GuardedUpdate {
  const parameters = holder === 'subscription' ? [amount, id, callTime, amount] : [amount, id, amount];
  return { sql: HOLD_SQL[holder].take, parameters, undo: { sql: HOLD_SQL[holder].giveBack, parameters: [amount, id] } };
}

/**
 * The whole batch as one take per token and per user: tokens first, as each hold does, and
 * by id, the order the settlement locks them in too, so the two never wait on each other in a circle.
 */
function combinedTakes(batch: PendingHold[], callTime: number): GuardedUpdate[] {
  const sums: Record<QuotaHolder, Map<number, number>> = { token: new Map(), user: new Map(), subscription: new Map() };
  for (const item of batch) {
    for (const holder of item.holders) {
      const id = holderId(item.hold, holder);
      sums[holder].set(id, (sums[holder].get(id) ?? 0) + item.amount);
    }
  }
  const takes: GuardedUpdate[] = [];
  for (const holder of HOLDER_LOCK_ORDER) for (const [id, amount] of inLockOrder(sums[holder])) takes.push(guardedTake(holder, id, amount, callTime));
  // The windows last, in key order: the settlement moves them after tokens and users too, in the same order.
  const windows = new Map<string, { take: WindowTake; amount: number }>();
  for (const item of batch) {
    for (const take of item.windows) {
      const key = windowKey(take);
      const sum = windows.get(key);
      if (sum) sum.amount += item.amount;
      else windows.set(key, { take, amount: item.amount });
    }
  }
  for (const key of [...windows.keys()].sort()) takes.push(guardedWindowTake(windows.get(key)!.take, windows.get(key)!.amount));
  return takes;
}

/** Tokens, users, subscriptions: the order holds and settlements lock their rows in. */
const HOLDER_LOCK_ORDER: readonly QuotaHolder[] = ['token', 'user', 'subscription'];

/** A window row's identity, which also orders the locks on window rows (see combinedTakes). */
export function windowKey(take: WindowTake): string {
  return `${take.kind}:${String(take.holderId).padStart(12, '0')}:${take.period}:${take.windowStart}`;
}

/**
 * Counts `amount` in the window, only while it fits and only in the window the hold was sized
 * for: if another instance rolled the window over meanwhile, the take fails and is retried in the new one.
 */
function guardedWindowTake(take: WindowTake, amount: number): GuardedUpdate {
  const key = [take.kind, take.holderId, take.period];
  return {
    sql: 'UPDATE budget_usage SET used = used + ? WHERE holder_kind = ? AND holder_id = ? AND period = ? AND window_start = ? AND used + ? <= ?',
    parameters: [amount, ...key, take.windowStart, amount, take.quota],
    undo: { sql: 'UPDATE budget_usage SET used = used - ? WHERE holder_kind = ? AND holder_id = ? AND period = ?', parameters: [amount, ...key] },
  };
}
