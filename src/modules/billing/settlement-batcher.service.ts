import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RawSql, Statement } from '../../database/raw-sql';
import { LogEntity } from '../logs/entities/log.entity';
import type { QuotaHold } from './quota-ledger.service';

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
  /** Present for a successful request; counted as a request and logged (when logging is on). */
  log?: Omit<LogEntity, 'id'>;
  success: boolean;
}

const FLUSH_INTERVAL_MS = 100;
const FLUSH_SIZE = 200;
const LOG_INSERT_CHUNK = 100;
const JOURNAL_DELETE_CHUNK = 500;
type LogRow = Omit<LogEntity, 'id'>;
const LOG_COLUMNS: (keyof LogRow)[] = [
  'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'token_id', 'model_name', 'quota', 'prompt_tokens',
  'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'channel_name', 'group', 'ip', 'other',
];
const LOG_ROW_PLACEHOLDERS = `(${LOG_COLUMNS.map(() => '?').join(', ')})`;

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
  private flushing?: Promise<void>;
  private logInsertPrefix?: string;
  private readonly writtenListeners: ((batch: readonly Settlement[]) => void)[] = [];

  constructor(private readonly sql: RawSql) {}

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
    await this.flush();
  }

  /**
   * Calls `listener` with every batch once it is committed (usage aggregation, quota alerts):
   * work that follows settlement rides on the batch instead of adding to each request. The
   * listener must be quick and must not throw; slow work it starts belongs off this path.
   */
  onWritten(listener: (batch: readonly Settlement[]) => void): void {
    this.writtenListeners.push(listener);
  }

  enqueue(settlement: Settlement): void {
    this.queue.push(settlement);
    if (this.queue.length >= FLUSH_SIZE) void this.flush();
  }

  /** Resolves once everything queued before the call is written. */
  async flush(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      if (this.flushing) {
        await this.flushing;
        continue;
      }
      const batch = this.queue;
      this.queue = [];
      this.flushing = this.write(batch)
        .catch((error: unknown) => {
          // Keep the batch: a database hiccup must not lose quota or logs; the next tick retries.
          this.queue = batch.concat(this.queue);
          this.logger.error(`settling ${batch.length} requests failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
          throw error;
        })
        .finally(() => (this.flushing = undefined));
      try {
        await this.flushing;
      } catch {
        return;
      }
    }
  }

  private async write(batch: Settlement[]): Promise<void> {
    const tokens = new Map<number, Sums>();
    const users = new Map<number, Sums>();
    const channels = new Map<number, number>();
    const logs: LogRow[] = [];
    const journalIds: string[] = [];
    const add = (map: Map<number, Sums>, id: number, remain: number, used: number, requests: number) => {
      const sums = map.get(id) ?? { remain: 0, used: 0, requests: 0 };
      sums.remain += remain;
      sums.used += used;
      sums.requests += requests;
      map.set(id, sums);
    };
    for (const item of batch) {
      const { hold, quota } = item;
      if (hold.journalId) journalIds.push(hold.journalId);
      const requests = item.success ? 1 : 0;
      if (hold.tokenId > 0) add(tokens, hold.tokenId, item.tokenLimited ? hold.fromToken - quota : 0, quota, requests);
      add(users, hold.userId, hold.fromUser - quota, quota, requests);
      if (item.channelId > 0 && quota !== 0) channels.set(item.channelId, (channels.get(item.channelId) ?? 0) + quota);
      if (item.log) logs.push(item.log);
    }
    const now = Math.floor(Date.now() / 1000);
    const statements: Statement[] = [];
    for (let i = 0; i < logs.length; i += LOG_INSERT_CHUNK) statements.push(this.insertLogs(logs.slice(i, i + LOG_INSERT_CHUNK)));
    for (const [id, sums] of tokens) {
      statements.push({ sql: 'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?', parameters: [sums.remain, sums.used, now, id] });
    }
    for (const [id, sums] of users) {
      if (sums.remain === 0 && sums.used === 0 && sums.requests === 0) continue;
      statements.push({ sql: 'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?', parameters: [sums.remain, sums.used, sums.requests, id] });
    }
    for (let i = 0; i < journalIds.length; i += JOURNAL_DELETE_CHUNK) {
      const chunk = journalIds.slice(i, i + JOURNAL_DELETE_CHUNK);
      statements.push({ sql: `DELETE FROM quota_holds WHERE id IN (${chunk.map(() => '?').join(', ')})`, parameters: chunk });
    }
    for (const [id, used] of channels) statements.push({ sql: 'UPDATE channels SET used_quota = used_quota + ? WHERE id = ?', parameters: [used, id] });
    await this.sql.runInTransaction(statements);
    for (const listener of this.writtenListeners) listener(batch);
  }

  /** One multi-row INSERT: TypeORM's insert builder costs more per row than the write itself. */
  private insertLogs(rows: LogRow[]): Statement {
    this.logInsertPrefix ??= `INSERT INTO logs (${LOG_COLUMNS.map((column) => this.sql.quote(column)).join(', ')}) VALUES `;
    const parameters: unknown[] = [];
    for (const row of rows) {
      for (const column of LOG_COLUMNS) parameters.push(column === 'is_stream' ? (row.is_stream ? 1 : 0) : row[column]);
    }
    return { sql: this.logInsertPrefix + new Array(rows.length).fill(LOG_ROW_PLACEHOLDERS).join(', '), parameters };
  }

}
