import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { nowSeconds } from '../../database/columns';
import { Transactions } from '../../database/transactions';
import { channelKeys, channelTypeRow } from './channel-types';
import { AbilitiesRepository } from './abilities.repository';
import { statusColumns } from './channel-status';
import { ChannelKeyInfo, joinChannelKeys, keyStatus, KeyStatus, keyStatuses, parseChannelKeyInfo, serialiseChannelKeyInfo, withKeyStatus } from './channel-keys';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, ChannelEntity } from './entities/channel.entity';

/** A multi-key channel as a key write reads it: its keys decrypted. */
export interface KeyedChannel {
  id: number;
  status: number;
  keys: string[];
  info: ChannelKeyInfo;
  /** channel_info as stored, for the conditional write. */
  rawInfo: string | null;
}

/** What a key status write did. */
export interface KeyStatusChange {
  /** The key was in one of the statuses the write expected, and now has the new one. */
  changed: boolean;
  /** The channel's own status followed: disabled with its last enabled key, enabled again (from auto-disabled) with its first. */
  channelStatus?: 'enabled' | 'disabled';
}

/** Another instance wrote the same channel between our read and write: read again, a few times. */
const WRITE_ATTEMPTS = 5;

export const ALL_KEYS_DISABLED_REASON = 'all of its keys are disabled';

/**
 * The writes of a multi-key channel's key states (channels.channel_info), shared by the
 * relay's auto-disable and the admin's key routes. Each is a read and a conditional write of
 * the channel row in one transaction: a concurrent write (another instance disabling another
 * key) makes the condition fail, and the change is read and applied again.
 */
@Injectable()
export class ChannelKeyStatesRepository {
  constructor(
    private readonly transactions: Transactions,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly abilities: AbilitiesRepository,
  ) {}

  /**
   * Sets key `index` to `to` when its status is one of `from`; the channel is disabled when no
   * enabled key remains and enabled again when an auto-disabled channel has one. `alongside`
   * runs in the same transaction when the key changed (the admin's audit row).
   */
  async setKeyStatus(
    channelId: number,
    index: number,
    change: { from: readonly KeyStatus[]; to: KeyStatus; reason: string },
    alongside?: (manager: EntityManager) => Promise<void>,
  ): Promise<KeyStatusChange> {
    return this.write<KeyStatusChange>(channelId, async (manager, channel) => {
      assertKeyIndex(channel, index);
      if (!change.from.includes(keyStatus(channel.info, index))) return { result: { changed: false } };
      const info = withKeyStatus(channel.info, index, change.to, change.reason, nowSeconds());
      const channelStatus = await this.writeKeys(manager, channel, channel.keys.length, info, change.reason, {});
      if (channelStatus === false) return undefined;
      await alongside?.(manager);
      return { result: { changed: true, channelStatus } };
    });
  }

  /** Removes key `index` from the key field; the keys after it move up one index, with their states. The last key stays. */
  async deleteKey(channelId: number, index: number, alongside: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.write(channelId, async (manager, channel, type) => {
      assertKeyIndex(channel, index);
      if (channel.keys.length === 1) throw new AppError('channel.last_key');
      const keys = channel.keys.filter((_, at) => at !== index);
      let info: ChannelKeyInfo = { multi_key_mode: channel.info.multi_key_mode };
      keys.forEach((_, newIndex) => {
        const oldIndex = newIndex < index ? newIndex : newIndex + 1;
        const status = keyStatus(channel.info, oldIndex);
        const at = String(oldIndex);
        if (status !== CHANNEL_STATUS_ENABLED) info = withKeyStatus(info, newIndex, status, channel.info.multi_key_disabled_reason?.[at] ?? '', channel.info.multi_key_disabled_time?.[at] ?? 0);
      });
      const key = this.secretBox.encrypt(joinChannelKeys(keys, channelTypeRow(type)?.keyIsJson === true));
      if ((await this.writeKeys(manager, channel, keys.length, info, 'a key was deleted', { key })) === false) return undefined;
      await alongside(manager);
      return { result: undefined };
    });
  }

  /** The channel's keys and their states, read now (the admin's list is not left to the cache's reload). */
  async read(channelId: number): Promise<KeyedChannel> {
    const row = await this.transactions.run((manager) => this.load(manager, channelId));
    return this.keyed(row);
  }

  private async write<T>(channelId: number, work: (manager: EntityManager, channel: KeyedChannel, type: number) => Promise<{ result: T } | undefined>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.transactions.run(async (manager) => {
        const row = await this.load(manager, channelId);
        return work(manager, this.keyed(row), row.type);
      });
      if (outcome) return outcome.result;
      if (attempt >= WRITE_ATTEMPTS) throw new Error(`channel ${channelId}: its key states kept changing under the write`);
    }
  }

  /**
   * Writes the new key states (and `columns`) only if channel_info and status are still what
   * was read, moving the channel's status with its keys; false when another write came first.
   */
  private async writeKeys(
    manager: EntityManager,
    channel: KeyedChannel,
    keyCount: number,
    info: ChannelKeyInfo,
    reason: string,
    columns: Partial<ChannelEntity>,
  ): Promise<KeyStatusChange['channelStatus'] | false> {
    const enabledKeys = keyStatuses(info, keyCount).filter((status) => status === CHANNEL_STATUS_ENABLED).length;
    let channelStatus: KeyStatusChange['channelStatus'];
    if (enabledKeys === 0 && channel.status === CHANNEL_STATUS_ENABLED) channelStatus = 'disabled';
    if (enabledKeys > 0 && channel.status === CHANNEL_STATUS_AUTO_DISABLED) channelStatus = 'enabled';
    const query = manager
      .createQueryBuilder()
      .update(ChannelEntity)
      .set({ ...columns, channel_info: serialiseChannelKeyInfo(info), ...(channelStatus && this.statusColumns(channelStatus, reason)) })
      .where('id = :id AND status = :status', { id: channel.id, status: channel.status });
    if (channel.rawInfo === null) query.andWhere('channel_info IS NULL');
    else query.andWhere('channel_info = :info', { info: channel.rawInfo });
    const result = await query.execute();
    if (!result.affected) return false;
    if (channelStatus) await this.abilities.setEnabled(manager, channel.id, channelStatus === 'enabled');
    return channelStatus;
  }

  private statusColumns(channelStatus: 'enabled' | 'disabled', reason: string): Partial<ChannelEntity> {
    if (channelStatus === 'enabled') return statusColumns(CHANNEL_STATUS_ENABLED, reason);
    return statusColumns(CHANNEL_STATUS_AUTO_DISABLED, `${ALL_KEYS_DISABLED_REASON}; the last: ${reason}`);
  }

  private async load(manager: EntityManager, channelId: number): Promise<ChannelEntity> {
    const row = await manager.findOne(ChannelEntity, { select: { id: true, type: true, key: true, status: true, channel_info: true }, where: { id: channelId } });
    if (!row) throw new AppError('channel.not_found');
    return row;
  }

  private keyed(row: ChannelEntity): KeyedChannel {
    let key: string;
    try {
      key = this.secretBox.decrypt(row.key);
    } catch {
      throw new AppError('channel.key_unreadable');
    }
    return { id: row.id, status: row.status, keys: channelKeys(row.type, key), info: parseChannelKeyInfo(row.channel_info), rawInfo: row.channel_info };
  }
}

function assertKeyIndex(channel: KeyedChannel, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= channel.keys.length) throw new AppError('channel.key_not_found');
}
