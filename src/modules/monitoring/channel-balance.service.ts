import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { runLimited } from '../../common/jobs/run-limited';
import { nowSeconds } from '../../database/columns';
import { CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import { OptionsService } from '../options/options.service';
import { TooManyRedirectsError } from '../outbound/outbound-http.service';
import { outboundRefusal, refusalToAppError } from '../outbound/outbound-guard.service';
import { ChannelCacheService } from '../relay/caches/channel-cache.service';
import type { RelayChannel } from '../relay/caches/relay-channel';
import { UpstreamClientService } from '../relay/upstream-client.service';
import { BALANCE_QUERIES, BalanceQuery } from './balance-queries';
import { ChannelMonitorService } from './channel-monitor.service';
import type { BalanceResult } from './monitoring.wire';


const BALANCE_TIMEOUT_MS = 15_000;
const BALANCE_CONCURRENCY = 4;

/**
 * Asks providers for their accounts' balances and stores them on the channel. A balance at or
 * below zero takes the channel out of service when automatic disabling is on.
 */
@Injectable()
export class ChannelBalanceService {
  private readonly logger = new Logger(ChannelBalanceService.name);
  /** The round of updateAll running now, if any. */
  private round?: Promise<number>;

  constructor(
    private readonly channels: ChannelCacheService,
    private readonly monitor: ChannelMonitorService,
    private readonly upstream: UpstreamClientService,
    private readonly options: OptionsService,
    private readonly dataSource: DataSource,
  ) {}

  async updateBalance(id: number): Promise<BalanceResult> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    const query = balanceQueryFor(channel);
    if (!query) throw new AppError('monitoring.balance_unsupported');
    const balance = await this.queryBalance(channel, query);
    const updated = { balance, balance_updated_time: nowSeconds() };
    await this.dataSource.createQueryBuilder().update('channels').set(updated).where('id = :id', { id }).execute();
    if (balance <= 0 && channel.autoBan && this.options.get('AutomaticDisableChannelEnabled')) {
      await this.monitor.disableChannel(channel, `balance ${balance} is at or below zero`);
    }
    return updated;
  }

  /**
   * Every enabled channel whose type has a balance API; answers how many were updated. A call
   * while a round is running joins it: repeated clicks and a scheduled round that overlaps a
   * slow one would otherwise each start another round of queries to every provider.
   */
  updateAll(): Promise<number> {
    this.round ??= this.updateAllOnce().finally(() => (this.round = undefined));
    return this.round;
  }

  private updateAllOnce(): Promise<number> {
    const channels = this.channels.allChannels().filter((channel) => channel.status === CHANNEL_STATUS_ENABLED && balanceQueryFor(channel));
    return runLimited(channels, BALANCE_CONCURRENCY, async (channel) => void (await this.updateBalance(channel.id)), {
      onError: (channel, error) => this.logger.warn(`balance of channel ${channel.id} failed: ${error instanceof AppError ? JSON.stringify(error.params) : String(error)}`),
    });
  }

  /** The one outbound call of balance queries (GET, JSON answer), through the worker when one is set. */
  private async fetchJson(channel: RelayChannel, query: BalanceQuery, path: string): Promise<unknown> {
    const url = new URL((channel.baseUrl || query.officialBaseUrl) + path);
    let status: number;
    let text: string;
    try {
      const answer = await this.upstream.sendOwn({ url, method: 'GET', headers: query.headers(channel.keys[0] ?? ''), headersTimeoutMs: BALANCE_TIMEOUT_MS, bodyTimeoutMs: BALANCE_TIMEOUT_MS });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const refusal = outboundRefusal(error);
      if (refusal) throw refusalToAppError(refusal);
      if (error instanceof TooManyRedirectsError) throw new AppError('monitoring.balance_failed', { message: 'too many redirects' });
      throw new AppError('monitoring.balance_failed', { message: 'could not reach the provider' });
    }
    if (status >= 400) throw new AppError('monitoring.balance_failed', { message: `status ${status}` });
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError('monitoring.balance_failed', { message: 'the provider answered with invalid JSON' });
    }
  }

  private async queryBalance(channel: RelayChannel, query: BalanceQuery): Promise<number> {
    const now = new Date();
    const balance = query.read(await this.fetchJson(channel, query, query.path(now)));
    if (balance === undefined) throw new AppError('monitoring.balance_failed', { message: 'unexpected answer' });
    if (!query.usagePath || !query.readUsage) return balance;
    const usage = query.readUsage(await this.fetchJson(channel, query, query.usagePath(now)));
    if (usage === undefined) throw new AppError('monitoring.balance_failed', { message: 'unexpected answer' });
    return Math.round((balance - usage) * 1e6) / 1e6;
  }
}

function balanceQueryFor(channel: RelayChannel): BalanceQuery | undefined {
  const query = BALANCE_QUERIES[channel.type];
  return query && (query.officialBaseUrl || channel.baseUrl) ? query : undefined;
}
