import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { Transactions } from '../../database/transactions';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import { OptionsService } from '../options/options.service';
import { ChannelCacheService } from './caches/channel-cache.service';
import type { RelayChannel } from './caches/relay-channel';
import { scrubUpstreamMessage } from './upstream-error';

/**
 * Watches upstream failures and takes a channel out of service when its account is broken:
 * a 401, or an error message containing one of AutomaticDisableKeywords. Rate limits and
 * server errors never disable a channel (they pass); a channel an admin disabled stays so.
 */
@Injectable()
export class ChannelMonitorService {
  private readonly logger = new Logger(ChannelMonitorService.name);

  constructor(
    private readonly options: OptionsService,
    private readonly transactions: Transactions,
    private readonly dataSource: DataSource,
    private readonly cacheSync: CacheSyncService,
    private readonly channelCache: ChannelCacheService,
  ) {}

  shouldDisable(channel: RelayChannel, upstreamStatus: number | undefined, message: string): boolean {
    if (!this.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan) return false;
    if (upstreamStatus === 401) return true;
    if (upstreamStatus === 429 || (upstreamStatus !== undefined && upstreamStatus >= 500)) return false;
    const lower = message.toLowerCase();
    return this.options.get('AutomaticDisableKeywords').some((keyword) => lower.includes(keyword.toLowerCase()));
  }

  /**
   * Sets status 3 with the reason, only if the channel is still enabled, then reloads every
   * channel cache. The reason quotes the upstream, which may echo the key: it is scrubbed
   * before it is stored or logged.
   */
  async disableChannel(channel: RelayChannel, upstreamReason: string): Promise<void> {
    const reason = scrubUpstreamMessage(upstreamReason, channel);
    this.channelCache.markDisabled(channel.id, CHANNEL_STATUS_AUTO_DISABLED);
    const otherInfo = JSON.stringify({ status_reason: reason, status_time: Math.floor(Date.now() / 1000) });
    const changed = await this.transactions.run(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update('channels')
        .set({ status: CHANNEL_STATUS_AUTO_DISABLED, other_info: otherInfo })
        .where('id = :id AND status = :enabled', { id: channel.id, enabled: CHANNEL_STATUS_ENABLED })
        .execute();
      if (!result.affected) return false;
      await manager.createQueryBuilder().update('abilities').set({ enabled: false }).where('channel_id = :id', { id: channel.id }).execute();
      return true;
    });
    if (changed) this.logger.warn(`channel ${channel.id} (${channel.name}) disabled automatically: ${reason}`);
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
  }

  /** Records a probe's response time (ms) and when it ran. */
  async recordTest(channelId: number, responseTimeMs: number): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update('channels')
      .set({ response_time: Math.round(responseTimeMs), test_time: Math.floor(Date.now() / 1000) })
      .where('id = :id', { id: channelId })
      .execute();
  }
}
