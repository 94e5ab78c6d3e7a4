import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { RedisService } from '../../common/redis/redis.service';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { nowSeconds } from '../../database/columns';
import { queryAnyDialect, sqlDialect } from '../../database/dialect';
import { Transactions } from '../../database/transactions';
import { LOG_TYPE_SYSTEM } from '../logs/entities/log.entity';
import { LogWriter } from '../logs/log-writer';
import { logText, logTextColumns } from '../logs/log-text';

/**
 * How long an instance counts as alive after its last heartbeat. Generous on purpose: holds of
 * an instance wrongly judged dead would be refunded while their requests still settle, so only
 * an instance silent for minutes (killed, or cut off from Redis that long) loses its holds.
 */
const OWNER_TTL_MS = 5 * 60_000;
const HEARTBEAT_MS = 30_000;
/** How often the master looks for holds of instances that stopped heart-beating. */
const SWEEP_MS = 60_000;
const OWNER_KEY_PREFIX = 'gateway:hold-owner:';

interface JournalRow {
  id: string;
  token_id: number | string;
  user_id: number | string;
}

interface HeldAmounts {
  from_token: number | string;
  from_user: number | string;
  subscription_id: number | string;
  from_plan: number | string;
  username: string | null;
  windows: string | null;
}

/**
 * Gives back the holds a crashed process left behind. Every hold is journaled in the
 * transaction that takes it (QuotaLedgerService) and its settlement or refund clears the row
 * (SettlementBatcherService), so a row whose owner is gone belongs to a request that will never
 * finish. Each is refunded to its token and user with a system log row.
 *
 * A journal row's id starts with the id of the process that took it (`ownerId`). Alone on the
 * database (no Redis), every row found at start is a previous run's. With Redis, several
 * instances share the database: each keeps a heartbeat key alive, and only the rows of owners
 * whose key has expired are refunded, at start and every minute on the master (NODE_TYPE).
 */
@Injectable()
export class HoldJournalService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HoldJournalService.name);
  /** This process's id, the prefix of every journal row it writes. */
  readonly ownerId = randomAlphanumeric(12);
  private timers: NodeJS.Timeout[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    private readonly redis: RedisService,
    private readonly cacheSync: CacheSyncService,
    private readonly logWriter: LogWriter,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const redis = this.redis.client;
    if (redis) {
      // Alive before any hold is taken, so no other instance can judge this one's rows abandoned.
      await this.heartbeat();
      this.timers.push(setInterval(() => void this.heartbeat().catch((error: Error) => this.logger.warn(`hold owner heartbeat: ${error.message}`)), HEARTBEAT_MS));
      if (this.config.nodeType === 'master') {
        this.timers.push(setInterval(() => void this.refundAbandonedHolds().catch((error: Error) => this.logger.error(`hold sweep: ${error.message}`)), SWEEP_MS));
      }
    }
    for (const timer of this.timers) timer.unref();
    await this.refundAbandonedHolds();
  }

  onModuleDestroy(): void {
    // The heartbeat key is left to expire: the last settlements are still being written.
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Refunds the journal rows whose owner is gone; answers how many. */
  async refundAbandonedHolds(): Promise<number> {
    const rows = await queryAnyDialect<JournalRow>(this.dataSource, 'SELECT id, token_id, user_id FROM quota_holds');
    const abandoned = await this.abandonedRows(rows);
    if (abandoned.length === 0) return 0;
    const refunded = await this.refund(abandoned);
    if (refunded.length > 0) this.logger.warn(`refunded ${refunded.length} quota holds left by an interrupted process`);
    for (const userId of new Set(refunded.map((row) => String(row.user_id)))) await this.cacheSync.invalidate(CACHE_NAMES.users, userId);
    if (refunded.some((row) => row.fromToken > 0)) await this.cacheSync.invalidate(CACHE_NAMES.tokens);
    return refunded.length;
  }

  private async heartbeat(): Promise<void> {
    await this.redis.client!.set(OWNER_KEY_PREFIX + this.ownerId, '1', 'PX', OWNER_TTL_MS);
  }

  private async abandonedRows(rows: JournalRow[]): Promise<JournalRow[]> {
    const owners = [...new Set(rows.map((row) => ownerOf(row.id)))].filter((owner) => owner !== this.ownerId);
    const redis = this.redis.client;
    if (!redis || owners.length === 0) return rows.filter((row) => ownerOf(row.id) !== this.ownerId);
    const keys = owners.map((owner) => OWNER_KEY_PREFIX + owner);
    // A Cluster refuses an MGET across slots: one GET per owner there.
    const alive = this.redis.isCluster ? await Promise.all(keys.map((key) => redis.get(key))) : await redis.mget(keys);
    const dead = new Set(owners.filter((_, index) => alive[index] === null));
    return rows.filter((row) => dead.has(ownerOf(row.id)));
  }

  /**
   * One transaction. Each row is read under a lock and deleted before its refund, so two
   * instances sweeping at once refund it once: the second finds it gone (MySQL, after waiting
   * for the first) or skips it while the first holds it (PostgreSQL's SKIP LOCKED: the first
   * deletes it; had the first rolled back, the next sweep finds it again). SQLite has one writer.
   */
  private refund(rows: JournalRow[]): Promise<Array<JournalRow & { fromToken: number }>> {
    const lock = { sqlite: '', mysql: ' FOR UPDATE', postgres: ' FOR UPDATE OF h SKIP LOCKED' }[sqlDialect(this.dataSource)];
    return this.transactions.run(async (manager) => {
      const refunded: Array<JournalRow & { fromToken: number }> = [];
      for (const row of rows) {
        const [held] = await queryAnyDialect<HeldAmounts>(
          manager,
          `SELECT h.from_token, h.from_user, h.subscription_id, h.from_plan, h.windows, u.username FROM quota_holds h LEFT JOIN users u ON u.id = h.user_id WHERE h.id = ?${lock}`,
          [row.id],
        );
        if (!held) continue;
        await queryAnyDialect(manager, 'DELETE FROM quota_holds WHERE id = ?', [row.id]);
        const fromToken = Number(held.from_token);
        const fromUser = Number(held.from_user);
        if (fromToken > 0) await queryAnyDialect(manager, 'UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?', [fromToken, Number(row.token_id)]);
        if (fromUser > 0) await queryAnyDialect(manager, 'UPDATE users SET quota = quota + ? WHERE id = ?', [fromUser, Number(row.user_id)]);
        const fromPlan = Number(held.from_plan);
        if (fromPlan > 0) await queryAnyDialect(manager, 'UPDATE subscriptions SET used = used - ? WHERE id = ?', [fromPlan, Number(held.subscription_id)]);
        // Out of the budget windows the holds counted in too, where those windows are still open (a rolled-over row no longer matches).
        const counted = fromUser + fromPlan;
        for (const [kind, holderId, period, windowStart] of parseJournalWindows(held.windows)) {
          if (counted > 0) await queryAnyDialect(manager, 'UPDATE budget_usage SET used = used - ? WHERE holder_kind = ? AND holder_id = ? AND period = ? AND window_start = ?', [counted, kind, holderId, period, windowStart]);
        }
        // The hold itself was never logged, so its return moves the logged balance by nothing: quota 0, the amount in the text.
        await this.logWriter.insert(
          {
            type: LOG_TYPE_SYSTEM,
            user_id: Number(row.user_id),
            username: held.username ?? '',
            token_id: Number(row.token_id),
            quota: 0,
            created_at: nowSeconds(),
            ...logTextColumns(logText('hold_refunded_after_crash', { quota: fromUser }), {
              reason: 'refund',
              refunded_hold: fromUser,
              refunded_token_hold: fromToken,
              ...(fromPlan > 0 ? { refunded_plan_hold: fromPlan, subscription_id: Number(held.subscription_id) } : {}),
            }),
          },
          manager,
        );
        refunded.push({ ...row, fromToken });
      }
      return refunded;
    });
  }
}

/** A journal row's windows (see journalWindows in the ledger); malformed text counts as none. */
function parseJournalWindows(text: string | null): Array<[string, number, string, number]> {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((entry): entry is [string, number, string, number] => Array.isArray(entry) && entry.length === 4) : [];
  } catch {
    return [];
  }
}

/** The process that wrote a journal row: its id's prefix (see QuotaLedgerService.journalRows). */
function ownerOf(journalId: string): string {
  return journalId.split('-')[0];
}
