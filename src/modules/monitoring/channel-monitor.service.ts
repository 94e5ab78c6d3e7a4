import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { ALL_KEYS_DISABLED_REASON, ChannelKeyStatesRepository, type KeyStatusChange } from '../channels/channel-key-states.repository';
import { channelTypeRow } from '../channels/channel-types';
import { ChannelsService } from '../channels/channels.service';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import { ChannelNoticesService } from '../notices/channel-notices.service';
import { OptionsService } from '../options/options.service';
import { ChannelCacheService } from '../relay/caches/channel-cache.service';
import { recordKeyError, type RelayChannel } from '../relay/caches/relay-channel';
import { scrubUpstreamMessage } from '../relay/upstream-error';
import type { ProbeOutcome } from './probe-outcome';

/** Error types and codes by which providers say the account itself is broken (new-api's list): OpenAI's and Claude's shapes. */
const ACCOUNT_ERROR_KINDS = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active', 'insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);

/** The account-level error type or code of an upstream error body, if it names one. */
function accountErrorKind(body: string): string | undefined {
  if (!body.includes('"error"')) return undefined;
  let error: unknown;
  try {
    error = (JSON.parse(body) as { error?: unknown }).error;
  } catch {
    return undefined;
  }
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, code } = error as { type?: unknown; code?: unknown };
  return [type, code].find((kind): kind is string => typeof kind === 'string' && ACCOUNT_ERROR_KINDS.has(kind));
}

/**
 * Watches upstream failures and takes a channel out of service when its account is broken:
 * a 401 (or a status the type's catalogue row names, as Gemini's 403), an error whose type or code says so (insufficient_quota,
 * authentication_error, …), or a message containing one of AutomaticDisableKeywords, whatever its status
 * (OpenAI reports an exhausted account as a 429 "You exceeded your current quota", as new-api
 * knows). Other rate limits and server errors pass; a channel an admin disabled stays so.
 */
@Injectable()
export class ChannelMonitorService {
  private readonly logger = new Logger(ChannelMonitorService.name);
  constructor(
    private readonly options: OptionsService,
    private readonly channels: ChannelsService,
    private readonly dataSource: DataSource,
    private readonly cacheSync: CacheSyncService,
    private readonly channelCache: ChannelCacheService,
    private readonly notices: ChannelNoticesService,
    private readonly keyStates: ChannelKeyStatesRepository,
  ) {}

  shouldDisable(channel: RelayChannel, upstreamStatus: number | undefined, message: string): boolean {
    if (!this.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan) return false;
    if (upstreamStatus === 401) return true;
    // Some providers answer a revoked or blocked key with another status (Google: 403); the catalogue names them.
    if (upstreamStatus !== undefined && channelTypeRow(channel.type)?.brokenKeyStatuses?.includes(upstreamStatus)) return true;
    if (accountErrorKind(message)) return true;
    const lower = message.toLowerCase();
    return this.options.get('AutomaticDisableKeywords').some((keyword) => lower.includes(keyword.toLowerCase()));
  }

  /**
   * The rules for a test's outcome (scheduled or the admin's): a disabling error, or a pass
   * slower than ChannelDisableThreshold seconds, takes an enabled channel out of service; a
   * clean pass brings an auto-disabled one back when AutomaticEnableChannelEnabled is on.
   * A channel an admin disabled (status 2) is never touched.
   */
  async applyTestOutcome(channel: RelayChannel, outcome: ProbeOutcome, keyIndex = 0): Promise<void> {
    if (channel.keys.length > 1) return this.applyKeyTestOutcome(channel, keyIndex, outcome);
    if (channel.status === CHANNEL_STATUS_ENABLED) {
      if (!outcome.success && this.shouldDisable(channel, outcome.status, outcome.errorText ?? '')) {
        await this.disableChannel(channel, `test failed: ${outcome.message}`);
      } else if (outcome.success && this.tooSlow(channel, outcome.time)) {
        await this.disableChannel(channel, `test took ${outcome.time} s, over the ${this.options.get('ChannelDisableThreshold')} s threshold`);
      }
      return;
    }
    if (channel.status === CHANNEL_STATUS_AUTO_DISABLED && outcome.success && !this.tooSlow(channel, outcome.time) && this.options.get('AutomaticEnableChannelEnabled')) {
      await this.enableChannel(channel, `test passed in ${outcome.time} s`);
    }
  }

  /**
   * The same rules for one key of a multi-key channel: they disable and bring back the key, and
   * the channel follows its keys (see ChannelKeyStatesRepository). A key an admin disabled is
   * never touched.
   */
  private async applyKeyTestOutcome(channel: RelayChannel, keyIndex: number, outcome: ProbeOutcome): Promise<void> {
    if (!outcome.success) recordKeyError(channel, keyIndex, `test: ${outcome.message}`);
    const status = channel.keyStatuses[keyIndex];
    if (status === CHANNEL_STATUS_ENABLED) {
      if (!outcome.success && this.shouldDisable(channel, outcome.status, outcome.errorText ?? '')) {
        await this.disableKey(channel, keyIndex, `test failed: ${outcome.message}`);
      } else if (outcome.success && this.tooSlow(channel, outcome.time)) {
        await this.disableKey(channel, keyIndex, `test took ${outcome.time} s, over the ${this.options.get('ChannelDisableThreshold')} s threshold`);
      }
      return;
    }
    if (status === CHANNEL_STATUS_AUTO_DISABLED && outcome.success && !this.tooSlow(channel, outcome.time) && this.options.get('AutomaticEnableChannelEnabled')) {
      await this.enableKey(channel, keyIndex, `test passed in ${outcome.time} s`);
    }
  }

  /**
   * Takes the key that failed out of service: a multi-key channel's key alone (the channel
   * goes with its last enabled key), or a single-key channel itself.
   */
  async disableKey(channel: RelayChannel, keyIndex: number, upstreamReason: string): Promise<void> {
    if (channel.keys.length <= 1) return this.disableChannel(channel, upstreamReason);
    this.channelCache.markKeyDisabled(channel, keyIndex, CHANNEL_STATUS_AUTO_DISABLED);
    const reason = scrubUpstreamMessage(upstreamReason, channel);
    const change = await this.keyStates.setKeyStatus(channel.id, keyIndex, { from: [CHANNEL_STATUS_ENABLED], to: CHANNEL_STATUS_AUTO_DISABLED, reason });
    await this.afterKeyChange(channel, change, `key #${keyIndex} disabled automatically: ${reason}`);
  }

  /** Brings an auto-disabled key back (and its channel, if that was auto-disabled); a single-key channel is enabled itself. */
  async enableKey(channel: RelayChannel, keyIndex: number, reason: string): Promise<void> {
    if (channel.keys.length <= 1) return this.enableChannel(channel, reason);
    const change = await this.keyStates.setKeyStatus(channel.id, keyIndex, { from: [CHANNEL_STATUS_AUTO_DISABLED], to: CHANNEL_STATUS_ENABLED, reason });
    await this.afterKeyChange(channel, change, `key #${keyIndex} enabled automatically: ${reason}`);
  }

  private async afterKeyChange(channel: RelayChannel, change: KeyStatusChange, logLine: string): Promise<void> {
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
    if (!change.changed) return;
    this.logger.warn(`channel ${channel.id} (${channel.name}) ${logLine}`);
    if (change.channelStatus) {
      await this.notices.channelStatusChanged(channel, change.channelStatus, change.channelStatus === 'disabled' ? `${ALL_KEYS_DISABLED_REASON}; ${logLine}` : logLine);
    }
  }

  /**
   * Sets status 3 with the reason, only if the channel is still enabled, then reloads every
   * channel cache. The reason quotes the upstream, which may echo the key: it is scrubbed
   * before it is stored or logged.
   */
  disableChannel(channel: RelayChannel, upstreamReason: string): Promise<void> {
    this.channelCache.markDisabled(channel.id, CHANNEL_STATUS_AUTO_DISABLED);
    return this.changeStatus(channel, CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_AUTO_DISABLED, scrubUpstreamMessage(upstreamReason, channel));
  }

  /** Sets status 1 again, only if the channel is still auto-disabled. */
  enableChannel(channel: RelayChannel, reason: string): Promise<void> {
    return this.changeStatus(channel, CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, reason);
  }

  private tooSlow(channel: RelayChannel, seconds: number): boolean {
    const threshold = this.options.get('ChannelDisableThreshold');
    return threshold > 0 && seconds > threshold && channel.autoBan && this.options.get('AutomaticDisableChannelEnabled');
  }

  /** ChannelsService.setStatus decides, so two instances or two tests never both notify. */
  private async changeStatus(channel: RelayChannel, from: number, to: number, reason: string): Promise<void> {
    if (await this.channels.setStatus(channel.id, from, to, reason)) {
      await this.notices.channelStatusChanged(channel, to === CHANNEL_STATUS_ENABLED ? 'enabled' : 'disabled', reason);
    }
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
