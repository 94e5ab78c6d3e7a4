import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { AuditService, secretChange } from '../audit/audit.service';
import { ChannelKeyStatesRepository, type KeyedChannel } from '../channels/channel-key-states.repository';
import { keyMode, keyStatus, maskKey } from '../channels/channel-keys';
import type { ChannelKeyList } from '../channels/channel.wire';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_MANUALLY_DISABLED } from '../channels/entities/channel.entity';
import { ChannelCacheService } from './caches/channel-cache.service';
import { sameKeys } from './caches/relay-channel';

/**
 * The keys of a channel for the console: masked, with their stored status and this instance's
 * counters, and the admin's enable, disable and delete of one key (its test is a probe: monitoring/channel-probe).
 */
@Injectable()
export class ChannelKeysService {
  constructor(
    private readonly keyStates: ChannelKeyStatesRepository,
    private readonly channelCache: ChannelCacheService,
    private readonly cacheSync: CacheSyncService,
    private readonly audit: AuditService,
  ) {}

  async list(channelId: number): Promise<ChannelKeyList> {
    return this.toKeyList(await this.keyStates.read(channelId));
  }

  /** Enabling brings back a key disabled either way; disabling marks it as the admin's, which no test undoes. */
  async setEnabled(channelId: number, index: number, enabled: boolean, actor: AuthenticatedUser): Promise<ChannelKeyList> {
    const to = enabled ? CHANNEL_STATUS_ENABLED : CHANNEL_STATUS_MANUALLY_DISABLED;
    const from = enabled ? [CHANNEL_STATUS_MANUALLY_DISABLED, CHANNEL_STATUS_AUTO_DISABLED] as const : [CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_AUTO_DISABLED] as const;
    const action = enabled ? 'enable_key' : 'disable_key';
    await this.keyStates.setKeyStatus(channelId, index, { from, to, reason: enabled ? '' : 'disabled by an administrator' }, (manager) =>
      this.audit.record(actor, { entity: 'channel', entityId: channelId, action, changes: { key_index: { from: null, to: index } } }, manager),
    );
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
    return this.list(channelId);
  }

  async delete(channelId: number, index: number, actor: AuthenticatedUser): Promise<ChannelKeyList> {
    await this.keyStates.deleteKey(channelId, index, (manager) =>
      this.audit.record(actor, { entity: 'channel', entityId: channelId, action: 'delete_key', changes: { key_index: { from: index, to: null }, key: secretChange() } }, manager),
    );
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
    return this.list(channelId);
  }

  /** The counters are this instance's, and only while the cache holds the same keys. */
  private toKeyList(channel: KeyedChannel): ChannelKeyList {
    const cached = this.channelCache.channel(channel.id);
    const usage = cached && sameKeys(cached.keys, channel.keys) ? cached.keyUsage : undefined;
    return {
      multi_key_mode: keyMode(channel.info),
      keys: channel.keys.map((key, index) => {
        const at = String(index);
        const lastError = usage?.lastErrors[index];
        const status = keyStatus(channel.info, index);
        return {
          index,
          masked_key: maskKey(key),
          status,
          status_reason: status === CHANNEL_STATUS_ENABLED ? '' : channel.info.multi_key_disabled_reason?.[at] ?? '',
          status_time: status === CHANNEL_STATUS_ENABLED ? 0 : channel.info.multi_key_disabled_time?.[at] ?? 0,
          last_error: lastError?.message ?? '',
          last_error_time: lastError?.time ?? 0,
          use_count: usage?.uses[index] ?? 0,
        };
      }),
    };
  }
}
