import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LogDatabase } from '../../database/log-database';
import { Statement } from '../../database/raw-sql';
import type { Settlement } from '../billing/settlement-batcher.service';
import { SettlementBatcherService } from '../billing/settlement-batcher.service';
import { OptionsService } from '../options/options.service';

/** The rollup tables, by the length of their buckets (seconds). */
const ROLLUPS = [
  { table: 'quota_data', seconds: 3600 },
  { table: 'quota_data_daily', seconds: 86_400 },
] as const;
type RollupTable = (typeof ROLLUPS)[number]['table'];

interface Bucket {
  table: RollupTable;
  userId: number;
  username: string;
  modelName: string;
  /** Start of the hour or day. */
  start: number;
  tokenUsed: number;
  count: number;
  quota: number;
}

/**
 * Buckets under user id 0 sum every user's usage of a model in an hour: the admin's
 * everyone-view reads those few rows instead of summing every user's rows on each request.
 */
export const ALL_USERS = 0;
/** How often the flush timer looks whether DataExportInterval has passed. */
const CHECK_EVERY_MS = 15_000;
const UPSERT_CHUNK = 100;
const COLUMNS = ['user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'];

/**
 * Sums usage per user (and for all users, see ALL_USERS), model and hour, and the same per UTC
 * day, in memory, fed by the committed settlement batches (no work per request), and adds the
 * sums to quota_data and quota_data_daily, in one transaction, every DataExportInterval minutes while
 * DataExportEnabled. Each instance sums what it settled; the unique bucket key lets every
 * instance add to the same row. The buckets live with the logs (LogDatabase: LOG_SQL_DSN, else the main database).
 */
@Injectable()
export class UsageAggregatorService implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageAggregatorService.name);
  private buckets = new Map<string, Bucket>();
  private timer?: NodeJS.Timeout;
  private lastFlush = Date.now();
  private flushing?: Promise<void>;

  constructor(
    private readonly batcher: SettlementBatcherService,
    private readonly options: OptionsService,
    private readonly logDatabase: LogDatabase,
  ) {}

  onModuleInit(): void {
    this.batcher.onWritten((batch) => this.add(batch));
    this.timer = setInterval(() => {
      if (Date.now() - this.lastFlush >= this.options.get('DataExportInterval') * 60_000) void this.flush();
    }, CHECK_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** After the batcher's last batch, so nothing settled is left out. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.batcher.drain();
    await this.flush();
  }

  /** Writes the sums gathered so far; on failure they are kept for the next flush. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.lastFlush = Date.now();
    if (this.buckets.size === 0) return;
    const pending = [...this.buckets.values()];
    this.buckets = new Map();
    this.flushing = this.write(pending)
      .catch((error: unknown) => {
        for (const bucket of pending) this.merge(bucket);
        this.logger.error(`writing ${pending.length} usage buckets failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private add(batch: readonly Settlement[]): void {
    if (!this.options.get('DataExportEnabled')) return;
    for (const { log } of batch) {
      if (!log) continue;
      for (const { table, seconds } of ROLLUPS) {
        const usage = { table, modelName: log.model_name, start: log.created_at - (log.created_at % seconds), tokenUsed: log.prompt_tokens + log.completion_tokens, count: 1, quota: log.quota };
        this.merge({ userId: log.user_id, username: log.username, ...usage });
        this.merge({ userId: ALL_USERS, username: '', ...usage });
      }
    }
  }

  private merge(bucket: Bucket): void {
    const key = `${bucket.table}\u0000${bucket.userId}\u0000${bucket.start}\u0000${bucket.modelName}`;
    const sums = this.buckets.get(key);
    if (!sums) {
      this.buckets.set(key, { ...bucket });
      return;
    }
    sums.tokenUsed += bucket.tokenUsed;
    sums.count += bucket.count;
    sums.quota += bucket.quota;
  }

  /** Both tables in one transaction: the views by hour and by day never disagree. */
  private write(buckets: Bucket[]): Promise<void> {
    const statements: Statement[] = [];
    for (const { table } of ROLLUPS) {
      const ofTable = buckets.filter((bucket) => bucket.table === table);
      for (let i = 0; i < ofTable.length; i += UPSERT_CHUNK) statements.push(this.upsert(table, ofTable.slice(i, i + UPSERT_CHUNK)));
    }
    return this.logDatabase.sql.runInTransaction(statements);
  }

  /** Adds to existing buckets. */
  private upsert(table: RollupTable, buckets: Bucket[]): Statement {
    const sql = this.logDatabase.sql.upsertAddingSql(table, COLUMNS, buckets.length, ['user_id', 'created_at', 'model_name'], ['token_used', 'count', 'quota']);
    return { sql, parameters: buckets.flatMap((b) => [b.userId, b.username, b.modelName, b.start, b.tokenUsed, b.count, b.quota]) };
  }
}
