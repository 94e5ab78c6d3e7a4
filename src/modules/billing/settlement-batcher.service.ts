import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { describeDatabaseError } from '../../database/database-unavailable';
import { inLockOrder, RawSql, Statement } from '../../database/raw-sql';
import { LogOutboxService } from '../logs/log-outbox.service';
import { LogWriter, type BatchedLogRow } from '../logs/log-writer';
import type { WindowTake } from './budget-window.service';
import { heldAmount, windowKey, type QuotaHold } from './quota-ledger.service';

/**
 * The end of one request's billing: the hold taken before the call, what the request finally
 * costs (0 when it failed, so the hold comes back whole) and, for a success, its log row.
 */
export interface Settlement {
  hold: QuotaHold;
  /** Whether the token's remain_quota moves (false for unlimited and playground tokens). */
  tokenLimited: boolean;
  quota: number;
  channelId: number;
  /** Present for a successful request; counted as a request and logged (when logging is on). Its subscription_id is set from the hold when the batch is written. */
  log?: BatchedLogRow;
  success: boolean;
}

const FLUSH_INTERVAL_MS = 100;
const FLUSH_SIZE = 200;
/** On shutdown a database that is down gets ~10 s to come back before queued settlements are given up. */
const SHUTDOWN_FLUSH_ATTEMPTS = 20;
const SHUTDOWN_RETRY_MS = 500;
/** The longest shutdown waits for the listeners' follow-up work (a quota alert waiting on a Redis that is down must not hold the process). */
const FOLLOW_UP_WAIT_MS = 5_000;
const JOURNAL_DELETE_CHUNK = 500;

interface Sums {
  remain: number;
  used: number;
  requests: number;
}

/**
 * Settles requests off the request path: queued settlements are written every 100 ms (or
 * every 200 items), each batch in ONE transaction that adds the log rows, applies the
 * summed quota deltas to tokens, users and channels, and clears the holds' journal rows. Log rows and quota move together, so
 * the ledger always balances; nothing queued is lost while the process runs, and the queue
 * is drained before the database closes on shutdown.
 */
@Injectable()
export class SettlementBatcherService implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(SettlementBatcherService.name);
  private queue: Settlement[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<boolean>;
  private failingSince?: number;
  /** The last time the queue was empty (Date.now()): its oldest settlement came after it. */
  private queuedSince = Date.now();
  /** How many settlements the batch being written holds, and queuedSince when it was taken. */
  private writing = 0;
  private writingSince = 0;
  private readonly coming = new Set<Promise<unknown>>();
  /** Work the listeners started on written batches (a quota alert's look at the users): shutdown waits for it before the database closes. */
  private readonly following = new Set<Promise<unknown>>();
  private readonly writtenListeners: ((batch: readonly Settlement[]) => WrittenFollowUp)[] = [];

  constructor(
    private readonly sql: RawSql,
    private readonly logWriter: LogWriter,
    private readonly logOutbox: LogOutboxService,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** TypeORM closes its connection in onApplicationShutdown, so the last flush runs just before. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (let attempt = 0; attempt < SHUTDOWN_FLUSH_ATTEMPTS; attempt++) {
      if (await this.drain()) {
        // The last batches' log rows on to a separate log database too (what fails stays in the outbox for the next start).
        await this.logOutbox.drain();
        // Their follow-up reads the database, which TypeORM closes next.
        await this.followUps();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_RETRY_MS));
    }
    this.logger.error(`shutting down with ${this.queue.length} settlements unwritten: the database did not answer`);
  }

  /** Waits for the listeners' work on the batches written so far, FOLLOW_UP_WAIT_MS at most. */
  private async followUps(): Promise<void> {
    if (this.following.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const givenUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, FOLLOW_UP_WAIT_MS)));
    await Promise.race([Promise.allSettled([...this.following]), givenUp]);
    clearTimeout(timer);
  }

  /**
   * Calls `listener` with every batch once it is committed (usage aggregation, quota alerts):
   * work that follows settlement rides on the batch instead of adding to each request. The
   * listener must be quick and must not throw; slow work it starts belongs off this path, and
   * it returns that work's promise (settled, never rejected) when the work uses the database,
   * so shutdown waits for it.
   */
  onWritten(listener: (batch: readonly Settlement[]) => WrittenFollowUp): void {
    this.writtenListeners.push(listener);
  }

  /**
   * Work that will enqueue a settlement once it finishes (a token count in a worker thread):
   * shutdown waits for it before the last flush, so its charge is not lost.
   */
  waitFor(work: Promise<unknown>): void {
    this.coming.add(work);
    const done = () => void this.coming.delete(work);
    work.then(done, (error: unknown) => {
      done();
      this.logger.error(`preparing a settlement failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /**
   * Settlements waiting to be written (queued or in the batch being written), and how long the
   * oldest of them has waited at most, in seconds (0 when none waits): the metrics' view.
   */
  backlog(): { depth: number; lagSeconds: number } {
    const since = this.writing > 0 ? this.writingSince : this.queue.length > 0 ? this.queuedSince : Date.now();
    return { depth: this.queue.length + this.writing, lagSeconds: (Date.now() - since) / 1000 };
  }

  enqueue(settlement: Settlement): void {
    this.queue.push(settlement);
    if (this.queue.length >= FLUSH_SIZE) void this.flush();
  }

  /**
   * Writes everything queued, and answers whether it all went in. A failed batch stays queued
   * (a database outage must lose no quota and no log row) and the next tick retries it;
   * the failure is never thrown, so no caller is left with a rejected promise.
   */
  async flush(): Promise<boolean> {
    if (this.queue.length === 0) this.queuedSince = Date.now();
    while (this.flushing || this.queue.length > 0) {
      if (this.flushing) {
        if (!(await this.flushing)) return false;
        continue;
      }
      const batch = this.queue;
      this.queue = [];
      this.writing = batch.length;
      this.writingSince = this.queuedSince;
      this.queuedSince = Date.now();
      this.flushing = this.write(batch)
        .then(
          () => this.recovered(),
          (error: unknown) => this.keepForRetry(batch, error),
        )
        .finally(() => {
          this.flushing = undefined;
          this.writing = 0;
        });
      if (!(await this.flushing)) return false;
    }
    return true;
  }

  /** Waits for the settlements still being prepared (waitFor), then writes everything. */
  async drain(): Promise<boolean> {
    while (this.coming.size > 0) await Promise.allSettled([...this.coming]);
    return this.flush();
  }

  private keepForRetry(batch: Settlement[], error: unknown): false {
    this.queue = batch.concat(this.queue);
    this.queuedSince = this.writingSince;
    // One line when the outage starts, not one every tick while it lasts.
    if (this.failingSince === undefined) {
      this.failingSince = Date.now();
      this.logger.error(`settling ${batch.length} requests failed, retrying until the database answers: ${describeDatabaseError(error)}`);
    }
    return false;
  }

  private recovered(): true {
    if (this.failingSince !== undefined) {
      this.logger.log(`settlements written again after ${Math.round((Date.now() - this.failingSince) / 1000)} s of failures`);
      this.failingSince = undefined;
    }
    return true;
  }

  private async write(batch: Settlement[]): Promise<void> {
    const tokens = new Map<number, Sums>();
    const users = new Map<number, Sums>();
    const channels = new Map<number, number>();
    const logs: BatchedLogRow[] = [];
    const subscriptions = new Map<number, number>();
    const journal = new Map<string, { fromToken: number; fromUser: number; fromPlan: number }>();
    const windows = new Map<string, { take: WindowTake; delta: number }>();
    const add = (map: Map<number, Sums>, id: number, remain: number, used: number, requests: number) => {
      const sums = map.get(id) ?? { remain: 0, used: 0, requests: 0 };
      sums.remain += remain;
      sums.used += used;
      sums.requests += requests;
      map.set(id, sums);
    };
    for (const item of batch) {
      const { hold, quota } = item;
      if (hold.journalId) {
        const held = journal.get(hold.journalId) ?? { fromToken: 0, fromUser: 0, fromPlan: 0 };
        held.fromToken += hold.fromToken;
        held.fromUser += hold.fromUser;
        held.fromPlan += hold.fromPlan ?? 0;
        journal.set(hold.journalId, held);
      }
      // A window moves by what the call cost minus what its hold counted, in the window the hold was counted in.
      const taken = heldAmount(hold);
      if (hold.windows && quota !== taken) {
        for (const take of hold.windows) {
          const key = windowKey(take);
          const sum = windows.get(key);
          if (sum) sum.delta += quota - taken;
          else windows.set(key, { take, delta: quota - taken });
        }
      }
      const requests = item.success ? 1 : 0;
      const subscriptionId = hold.subscriptionId ?? 0;
      if (hold.tokenId > 0) add(tokens, hold.tokenId, item.tokenLimited ? hold.fromToken - quota : 0, quota, requests);
      // A draw on a subscription charges its `used`; the wallet stays as it is, the user's totals count the spending.
      if (subscriptionId > 0) subscriptions.set(subscriptionId, (subscriptions.get(subscriptionId) ?? 0) + quota - taken);
      add(users, hold.userId, subscriptionId > 0 ? 0 : hold.fromUser - quota, quota, requests);
      if (item.channelId > 0 && quota !== 0) channels.set(item.channelId, (channels.get(item.channelId) ?? 0) + quota);
      if (item.log) {
        // Set on the item's own row rather than copied: the batcher owns it, and a copy per row showed in profiles.
        item.log.subscription_id = subscriptionId;
        logs.push(item.log);
      }
    }
    const now = Math.floor(Date.now() / 1000);
    const statements: Statement[] = this.logWriter.insertStatements(logs);
    // Tokens, then users, each by id: the order the holds lock them in (see combinedTakes).
    for (const [id, sums] of inLockOrder(tokens)) {
      statements.push({ sql: 'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?', parameters: [sums.remain, sums.used, now, id] });
    }
    for (const [id, sums] of inLockOrder(users)) {
      if (sums.remain === 0 && sums.used === 0 && sums.requests === 0) continue;
      statements.push({ sql: 'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?', parameters: [sums.remain, sums.used, sums.requests, id] });
    }
    for (const [id, delta] of inLockOrder(subscriptions)) {
      if (delta !== 0) statements.push({ sql: 'UPDATE subscriptions SET used = used + ? WHERE id = ?', parameters: [delta, id] });
    }
    // After tokens and users and in key order, as the holds take them. A window rolled over since is history: its row no longer matches.
    for (const key of [...windows.keys()].sort()) {
      const { take, delta } = windows.get(key)!;
      if (delta === 0) continue;
      statements.push({
        sql: 'UPDATE budget_usage SET used = used + ? WHERE holder_kind = ? AND holder_id = ? AND period = ? AND window_start = ?',
        parameters: [delta, take.kind, take.holderId, take.period, take.windowStart],
      });
    }
    // A journal row sums several holds: each settled one leaves it, and the row goes when none is left.
    for (const [id, held] of journal) {
      statements.push({ sql: 'UPDATE quota_holds SET from_token = from_token - ?, from_user = from_user - ?, from_plan = from_plan - ? WHERE id = ?', parameters: [held.fromToken, held.fromUser, held.fromPlan, id] });
    }
    const journalIds = [...journal.keys()];
    for (let i = 0; i < journalIds.length; i += JOURNAL_DELETE_CHUNK) {
      const chunk = journalIds.slice(i, i + JOURNAL_DELETE_CHUNK);
      statements.push({ sql: `DELETE FROM quota_holds WHERE from_user <= 0 AND from_plan <= 0 AND id IN (${chunk.map(() => '?').join(', ')})`, parameters: chunk });
    }
    // By id too: a statement that locks many channels (an administrator's bulk delete) takes them in key order.
    for (const [id, used] of inLockOrder(channels)) statements.push({ sql: 'UPDATE channels SET used_quota = used_quota + ? WHERE id = ?', parameters: [used, id] });
    await this.sql.runInTransaction(statements);
    for (const listener of this.writtenListeners) {
      const work = listener(batch);
      if (!work) continue;
      this.following.add(work);
      void work.finally(() => this.following.delete(work));
    }
  }
}

/** What a written-batch listener may leave running: a promise that never rejects, or nothing. */
type WrittenFollowUp = Promise<void> | void;
