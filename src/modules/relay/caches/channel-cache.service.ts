import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CACHE_NAMES } from '../../../common/cache/cache-names';
import { CacheSyncService } from '../../../common/cache/cache-sync.service';
import { SECRET_BOX, SecretBox } from '../../../common/crypto/secret-box';
import { AbilityEntity } from '../../channels/entities/ability.entity';
import { channelKeys, channelTypeRow, isRelayable } from '../../channels/channel-types';
import { parseChannelKeyInfo, type KeyStatus } from '../../channels/channel-keys';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, ChannelEntity } from '../../channels/entities/channel.entity';
import { parseJsonObject } from './json-setting';
import { channelKeyFields, enabledIndexes, sameKeys, type ChannelSetting, type RelayChannel } from './relay-channel';

/** Channels of one priority in one (group, model) route, with their weights. */
export interface PriorityTier {
  priority: number;
  members: { channel: RelayChannel; weight: number }[];
}

/**
 * Enabled channels and their abilities, in memory. Reloaded whole on every channel write
 * (cache name 'channels'), so routing never reads the database.
 */
@Injectable()
export class ChannelCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ChannelCacheService.name);
  private channels = new Map<number, RelayChannel>();
  /** group → model → tiers, highest priority first. */
  private routes = new Map<string, Map<string, PriorityTier[]>>();
  private unsubscribe?: () => void;
  private loading?: Promise<void>;
  private reloadAgain = false;

  constructor(
    @InjectRepository(ChannelEntity) private readonly channelRepository: Repository<ChannelEntity>,
    @InjectRepository(AbilityEntity) private readonly abilityRepository: Repository<AbilityEntity>,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly cacheSync: CacheSyncService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.unsubscribe = this.cacheSync.subscribe(CACHE_NAMES.channels, () => this.reload());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Coalesces bursts of invalidations: at most one load runs, and one more follows it. */
  reload(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.load();
        } while (this.reloadAgain);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Any channel by id, enabled or not (probes test disabled channels too). */
  channel(id: number): RelayChannel | undefined {
    return this.channels.get(id);
  }

  allChannels(): RelayChannel[] {
    return [...this.channels.values()];
  }

  /** Whether any channel, enabled or not, lists the model: if none does, the model is unknown (404), not unavailable (503). */
  listsModel(model: string): boolean {
    for (const channel of this.channels.values()) if (channel.models.includes(model)) return true;
    return false;
  }

  /**
   * The provider name of a retired type (PaLM2) when only its channels list the model: no
   * channel can ever serve it, which the client is told rather than "not available now".
   */
  retiredProviderListing(model: string): string | undefined {
    let retired: string | undefined;
    for (const channel of this.channels.values()) {
      if (!channel.models.includes(model)) continue;
      const row = channelTypeRow(channel.type);
      if (row?.servedBy !== 'retired') return undefined;
      retired = row.name;
    }
    return retired;
  }

  tiers(group: string, model: string): PriorityTier[] {
    return this.routes.get(group)?.get(model) ?? [];
  }

  /** Models some enabled channel serves in the group. */
  modelsOfGroup(group: string): string[] {
    return [...(this.routes.get(group)?.keys() ?? [])];
  }

  /**
   * Takes a key out of the draw at once (and the channel out of routing with its last key), in
   * the request's copy of the channel and the cache's; the reload after the status write confirms it.
   */
  markKeyDisabled(channel: RelayChannel, keyIndex: number, status: KeyStatus): void {
    const cached = this.channels.get(channel.id);
    for (const copy of cached && cached !== channel ? [channel, cached] : [channel]) {
      if (copy.keyStatuses[keyIndex] === undefined || copy.keys[keyIndex] !== channel.keys[keyIndex]) continue;
      copy.keyStatuses[keyIndex] = status;
      copy.enabledKeys = enabledIndexes(copy.keyStatuses);
      if (copy.enabledKeys.length === 0) copy.status = CHANNEL_STATUS_AUTO_DISABLED;
    }
  }

  /** Takes a channel out of routing at once; the reload that follows its status write confirms it. */
  markDisabled(id: number, status: number): void {
    const channel = this.channels.get(id);
    if (channel) channel.status = status;
  }

  private async load(): Promise<void> {
    const [rows, abilities] = await Promise.all([this.channelRepository.find(), this.abilityRepository.find({ where: { enabled: true } })]);
    const channels = new Map<number, RelayChannel>();
    for (const row of rows) {
      const channel = this.toRelayChannel(row, this.channels.get(row.id));
      if (channel) channels.set(channel.id, channel);
    }
    const routes = new Map<string, Map<string, PriorityTier[]>>();
    for (const ability of abilities) {
      const channel = channels.get(ability.channel_id);
      // A retired type (PaLM2) keeps its channels for the console, but nothing can answer through them.
      if (!channel || channel.status !== CHANNEL_STATUS_ENABLED || !isRelayable(channelTypeRow(channel.type))) continue;
      let models = routes.get(ability.group);
      if (!models) routes.set(ability.group, (models = new Map()));
      let tiers = models.get(ability.model);
      if (!tiers) models.set(ability.model, (tiers = []));
      let tier = tiers.find((candidate) => candidate.priority === ability.priority);
      if (!tier) tiers.push((tier = { priority: ability.priority, members: [] }));
      tier.members.push({ channel, weight: Math.max(0, ability.weight) });
    }
    for (const models of routes.values()) for (const tiers of models.values()) tiers.sort((a, b) => b.priority - a.priority);
    this.channels = channels;
    this.routes = routes;
  }

  private toRelayChannel(row: ChannelEntity, previous: RelayChannel | undefined): RelayChannel | undefined {
    let key: string;
    try {
      key = this.secretBox.decrypt(row.key);
    } catch {
      // A key encrypted with another CRYPTO_SECRET: the channel cannot be used, and we say which.
      this.logger.error(`channel ${row.id}: its key cannot be decrypted with this CRYPTO_SECRET; it is left out of routing`);
      return undefined;
    }
    const keys = channelKeys(row.type, key);
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      status: row.status,
      ...channelKeyFields(keys, parseChannelKeyInfo(row.channel_info), previous && sameKeys(previous.keys, keys) ? previous.keyUsage : undefined),
      baseUrl: row.base_url ?? '',
      openaiOrganization: row.openai_organization ?? '',
      other: row.other ?? '',
      autoBan: row.auto_ban === 1,
      priority: row.priority,
      weight: row.weight,
      testModel: row.test_model ?? '',
      models: (row.models ?? '')
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
      modelMapping: parseJsonObject<Record<string, string>>(row.model_mapping),
      statusCodeMapping: parseJsonObject<Record<string, string>>(row.status_code_mapping),
      paramOverride: parseJsonObject<Record<string, unknown>>(row.param_override),
      setting: parseJsonObject<ChannelSetting>(row.setting),
    };
  }
}
