import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { translate } from '../../common/i18n/catalogue';
import { RedisService } from '../../common/redis/redis.service';
import { nowSeconds } from '../../database/columns';
import { Transactions } from '../../database/transactions';
import { LOG_TYPE_SYSTEM, LogEntity } from '../logs/entities/log.entity';

/** With Redis several instances may share the database: only holds this old are surely abandoned. */
const SHARED_STALE_HOLD_SECONDS = 3600;

interface JournalRow {
  id: string;
  token_id: number | string;
  user_id: number | string;
  from_token: number | string;
  from_user: number | string;
  username: string | null;
}

/**
 * Gives back the holds a crashed process left behind. Every hold is journaled in the
 * transaction that takes it (QuotaLedgerService) and its settlement or refund clears the row
 * (SettlementBatcherService), so rows found at start belong to requests that never finished.
 * Each is refunded to its token and user with a system log row, before traffic is accepted.
 */
@Injectable()
export class HoldJournalService implements OnApplicationBootstrap {
  private readonly logger = new Logger(HoldJournalService.name);

  constructor(
    private readonly transactions: Transactions,
    private readonly redis: RedisService,
    private readonly cacheSync: CacheSyncService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Alone on the database (no Redis), every row is from a previous run: this one has taken none yet.
    const cutoff = this.redis.client ? nowSeconds() - SHARED_STALE_HOLD_SECONDS : nowSeconds() + 1;
    const refunded = await this.refundHoldsOlderThan(cutoff);
    if (refunded > 0) this.logger.warn(`refunded ${refunded} quota holds left by an interrupted process`);
  }

  /** Refunds and clears the journal rows created before `cutoff` (unix seconds); answers how many. */
  async refundHoldsOlderThan(cutoff: number): Promise<number> {
    const refunded = await this.transactions.run(async (manager) => {
      const rows: JournalRow[] = await manager.query(
        'SELECT h.id, h.token_id, h.user_id, h.from_token, h.from_user, u.username FROM quota_holds h LEFT JOIN users u ON u.id = h.user_id WHERE h.created_at < ?',
        [cutoff],
      );
      for (const row of rows) {
        const fromToken = Number(row.from_token);
        const fromUser = Number(row.from_user);
        if (fromToken > 0) await manager.query('UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?', [fromToken, Number(row.token_id)]);
        if (fromUser > 0) await manager.query('UPDATE users SET quota = quota + ? WHERE id = ?', [fromUser, Number(row.user_id)]);
        // The hold itself was never logged, so its return moves the logged balance by nothing: quota 0, the amount in the text.
        await manager.insert(LogEntity, {
          type: LOG_TYPE_SYSTEM,
          user_id: Number(row.user_id),
          username: row.username ?? '',
          token_id: Number(row.token_id),
          content: translate('log.hold_refunded_after_crash', 'zh', { quota: fromUser }),
          quota: 0,
          created_at: nowSeconds(),
          other: JSON.stringify({ reason: 'refund', refunded_hold: fromUser, refunded_token_hold: fromToken }),
        });
        await manager.query('DELETE FROM quota_holds WHERE id = ?', [row.id]);
      }
      return rows;
    });
    for (const userId of new Set(refunded.map((row) => String(row.user_id)))) await this.cacheSync.invalidate(CACHE_NAMES.users, userId);
    if (refunded.some((row) => Number(row.from_token) > 0)) await this.cacheSync.invalidate(CACHE_NAMES.tokens);
    return refunded.length;
  }
}
