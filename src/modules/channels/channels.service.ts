import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { likeCondition, sqlDialect } from '../../database/dialect';
import { nowSeconds } from '../../database/columns';
import { Transactions } from '../../database/transactions';
import { OptionsService } from '../options/options.service';
import { ChannelHealthService } from '../channel-health/channel-health.service';
import { modelsByChannelType } from './channel-type-models';
import { AbilitiesRepository } from './abilities.repository';
import {
  assertKeyLength,
  normaliseBaseUrl,
  normaliseGroups,
  normaliseJsonObject,
  normaliseModelMapping,
  normaliseModels,
  normaliseTag,
  splitList,
} from './channel-fields';
import { statusColumns } from './channel-status';
import { CHANNEL_TYPE, CHANNEL_TYPES, channelKeys, channelTypeRow, SAVABLE_CHANNEL_TYPE_IDS } from './channel-types';
import { keyMode, parseChannelKeyInfo, remapKeyStates, serialiseChannelKeyInfo, withoutAutoDisabledKeys } from './channel-keys';
import { toChannelView, toTagRow } from './channel.view';
import { ChannelListRow, ChannelView } from './channel.wire';
import { CreateChannelDto, EditTagDto, UpdateChannelDto } from './dto/channel.dto';
import { AbilityEntity } from './entities/ability.entity';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_MANUALLY_DISABLED, ChannelEntity } from './entities/channel.entity';
import { OutboundGuardService } from '../outbound/outbound-guard.service';
import { AuditService, fieldChanges, secretChange } from '../audit/audit.service';
import type { AuditFieldChange } from '../audit/audit.wire';

/** The channel fields the audit log compares; the key is compared apart (it is stored encrypted, and shown only as changed). */
const AUDITED_FIELDS = [
  'name', 'type', 'status', 'group', 'models', 'base_url', 'other', 'model_mapping', 'status_code_mapping', 'setting', 'param_override',
  'tag', 'priority', 'weight', 'auto_ban', 'test_model', 'openai_organization', 'max_input_tokens',
] as const satisfies readonly (keyof ChannelEntity)[];

/**
 * The columns an edit writes. The others are runtime state with writers of their own: used_quota
 * (the ledger), balance (the balance job), response_time and test_time (the probes), other_info
 * (the monitor's status reason). An edit that saved the whole row it had read would put back the
 * values it read over what those wrote meanwhile (on PostgreSQL it did: test/channel-edit-races).
 */
const EDITED_COLUMNS = [...AUDITED_FIELDS, 'key', 'channel_info'] as const satisfies readonly (keyof ChannelEntity)[];

export interface ChannelFilter {
  keyword?: string;
  group?: string;
  model?: string;
}

export interface ChannelListQuery {
  page: PageQuery;
  filter: ChannelFilter;
  /** Newest first instead of highest priority first. */
  idSort: boolean;
  /** One row per tag (see ChannelTagRow) instead of one per channel. */
  tagMode: boolean;
}

/** An entry of GET /api/channel/models, shaped like an OpenAI model object. */
export interface KnownModel {
  id: string;
  object: 'model';
  created: number;
  /** Provider kind of the first channel serving it; 'custom' when only the price list knows it. */
  owned_by: string;
}

/**
 * Channel management. Every write keeps the abilities table in step inside the same
 * transaction and then tells the relay's channel cache to reload.
 */
@Injectable()
export class ChannelsService {
  constructor(
    @InjectRepository(ChannelEntity) private readonly channels: Repository<ChannelEntity>,
    private readonly abilities: AbilitiesRepository,
    private readonly transactions: Transactions,
    private readonly cacheSync: CacheSyncService,
    private readonly options: OptionsService,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly outbound: OutboundGuardService,
    private readonly audit: AuditService,
    private readonly health: ChannelHealthService,
  ) {}

  /** A channel as answers show it, with the relay's figures in effect for it (an arrow: it is passed to map). */
  private readonly view = (channel: ChannelEntity): ChannelView => toChannelView(channel, this.health.figures(channel));

  list(query: ChannelListQuery): Promise<Page<ChannelListRow>> {
    return query.tagMode ? this.listByTag(query) : this.listChannels(query);
  }

  async get(id: number): Promise<ChannelView> {
    return this.view(await this.load(this.channels.manager, id));
  }

  /** Single mode stores the key as given; batch mode makes one channel per key (per non-blank line, or per JSON key file of an array). */
  async create(dto: CreateChannelDto, actor: AuthenticatedUser): Promise<ChannelView[]> {
    const name = dto.name.trim();
    const keyField = dto.key.trim();
    const type = dto.type ?? CHANNEL_TYPE.OPENAI;
    const keys = dto.mode === 'batch' ? channelKeys(type, keyField) : [keyField];
    if (!name || keys.length === 0 || !keys[0]) throw new AppError('channel.name_and_key_required');
    // A single channel may hold several keys (a multi-key channel): each is checked on its own.
    keys.flatMap((key) => channelKeys(type, key)).forEach(assertKeyLength);
    assertSavableType(dto.type);
    await this.assertBaseUrlAllowed(dto);
    const template = this.channels.create({
      name,
      type: CHANNEL_TYPE.OPENAI,
      status: CHANNEL_STATUS_ENABLED,
      group: 'default',
      base_url: '',
      openai_organization: '',
      test_model: '',
      other: null,
      other_info: null,
      tag: null,
      priority: 0,
      weight: 0,
      auto_ban: 1,
      max_input_tokens: 0,
      created_time: nowSeconds(),
    });
    this.applyFields(template, dto);
    template.models = normaliseModels(dto.models);
    template.channel_info = serialiseChannelKeyInfo({ multi_key_mode: dto.multi_key_mode });

    const created = await this.transactions.run(async (manager) => {
      const entities = keys.map((key) => manager.create(ChannelEntity, { ...template, key: this.secretBox.encrypt(key) }));
      const saved: ChannelEntity[] = [];
      for (const entity of entities) saved.push(await manager.save(entity));
      await this.abilities.replaceForChannels(manager, saved);
      const changes: Record<string, AuditFieldChange> = { ...fieldChanges({} as ChannelEntity, template, AUDITED_FIELDS), key: secretChange() };
      await this.audit.record(actor, { entity: 'channel', entityId: saved.map((channel) => channel.id), action: 'create', changes }, manager);
      return saved;
    });
    await this.invalidate();
    return created.map(this.view);
  }

  /**
   * A new channel with the settings of channel `id` (key included, still sealed), named with `suffix`; its runtime
   * state (status reason, used quota, balance, response and test times) starts fresh.
   */
  async copy(id: number, suffix: string, actor: AuthenticatedUser): Promise<ChannelView> {
    const copied = await this.transactions.run(async (manager) => {
      const { id: _sourceId, ...source } = await this.load(manager, id);
      const copy = manager.create(ChannelEntity, {
        ...source,
        name: `${source.name}${suffix}`.slice(0, 255),
        other_info: null,
        // The copy's keys start enabled: their statuses were the source's runtime state.
        channel_info: serialiseChannelKeyInfo({ multi_key_mode: keyMode(parseChannelKeyInfo(source.channel_info)) }),
        response_time: 0,
        balance: 0,
        balance_updated_time: 0,
        used_quota: 0,
        test_time: 0,
        created_time: nowSeconds(),
      });
      const saved = await manager.save(copy);
      await this.abilities.replaceForChannels(manager, [saved]);
      await this.audit.record(actor, { entity: 'channel', entityId: saved.id, action: 'copy', changes: { source: { from: null, to: id } } }, manager);
      return saved;
    });
    await this.invalidate();
    return this.view(copied);
  }

  /** A full edit or a patch: only the fields present change; a blank key keeps the stored one. */
  async update(dto: UpdateChannelDto, actor: AuthenticatedUser): Promise<ChannelView> {
    await this.assertBaseUrlAllowed(dto);
    const saved = await this.transactions.run(async (manager) => {
      const channel = await this.load(manager, dto.id, true);
      assertSavableType(dto.type, channel.type);
      const before = { ...channel };
      this.applyFields(channel, dto);
      if (dto.name !== undefined && dto.name !== null) {
        channel.name = dto.name.trim();
        if (!channel.name) throw new AppError('channel.name_required');
      }
      if (dto.models !== undefined && dto.models !== null) channel.models = normaliseModels(dto.models);
      const key = dto.key?.trim();
      const storedKey = key ? this.storedKey(before) : undefined;
      if (key) {
        channelKeys(channel.type, key).forEach(assertKeyLength);
        channel.key = this.secretBox.encrypt(key);
      }
      const keyInfo = parseChannelKeyInfo(channel.channel_info);
      const newKeyInfo = key && key !== storedKey ? remapKeyStates(keyInfo, channelKeys(before.type, storedKey ?? ''), channelKeys(channel.type, key)) : { ...keyInfo };
      if (dto.multi_key_mode) newKeyInfo.multi_key_mode = dto.multi_key_mode;
      channel.channel_info = serialiseChannelKeyInfo(channel.status === CHANNEL_STATUS_ENABLED && before.status !== CHANNEL_STATUS_ENABLED ? withoutAutoDisabledKeys(newKeyInfo) : newKeyInfo);
      const changes = fieldChanges(before, channel, AUDITED_FIELDS);
      if (key && key !== storedKey) changes.key = secretChange();
      if (keyMode(newKeyInfo) !== keyMode(keyInfo)) changes.multi_key_mode = { from: keyMode(keyInfo), to: keyMode(newKeyInfo) };
      if (Object.keys(changes).length > 0) await this.audit.record(actor, { entity: 'channel', entityId: channel.id, action: 'update', changes }, manager);
      await this.writeEdits(manager, [before], [channel]);
      return channel;
    });
    await this.invalidate();
    return this.view(saved);
  }

  async delete(id: number, actor: AuthenticatedUser): Promise<void> {
    const deleted = await this.deleteWhere(actor, async (manager) => (await manager.existsBy(ChannelEntity, { id })) ? [id] : []);
    if (deleted === 0) throw new AppError('channel.not_found');
  }

  deleteMany(ids: number[], actor: AuthenticatedUser): Promise<number> {
    return this.deleteWhere(actor, async (manager) => (await manager.find(ChannelEntity, { select: { id: true }, where: { id: In(ids) } })).map((c) => c.id));
  }

  /** Removes manually and automatically disabled channels alike. */
  deleteDisabled(actor: AuthenticatedUser): Promise<number> {
    return this.deleteWhere(actor, async (manager) =>
      (await manager.find(ChannelEntity, { select: { id: true }, where: { status: In([CHANNEL_STATUS_MANUALLY_DISABLED, CHANNEL_STATUS_AUTO_DISABLED]) } })).map((c) => c.id),
    );
  }

  /** Rebuilds the whole abilities table from the channels; answers how many channels it covered. */
  async fixAbilities(): Promise<number> {
    const count = await this.transactions.run(async (manager) => {
      const all = await manager.find(ChannelEntity, { select: { id: true, models: true, group: true, status: true, priority: true, weight: true, tag: true } });
      await this.abilities.deleteAll(manager);
      await this.abilities.replaceForChannels(manager, all);
      return all.length;
    });
    await this.invalidate();
    return count;
  }

  async setTagForChannels(ids: number[], tag: string, actor: AuthenticatedUser): Promise<number> {
    const count = await this.transactions.run(async (manager) => {
      const found = await manager.find(ChannelEntity, { select: { id: true }, where: { id: In(ids) } });
      const foundIds = found.map((c) => c.id);
      if (foundIds.length === 0) return 0;
      await manager.update(ChannelEntity, { id: In(foundIds) }, { tag });
      await manager.update(AbilityEntity, { channel_id: In(foundIds) }, { tag });
      await this.audit.record(actor, { entity: 'channel', entityId: foundIds, action: 'set_tag', changes: { tag: { from: null, to: tag } } }, manager);
      return foundIds.length;
    });
    await this.invalidate();
    return count;
  }

  /** Edits every channel of a tag; blank fields are left alone, as the tag editor sends them all. */
  async editTag(dto: EditTagDto, actor: AuthenticatedUser): Promise<number> {
    const newTag = normaliseTag(dto.new_tag);
    const modelMapping = dto.model_mapping?.trim() ? normaliseModelMapping(dto.model_mapping) : undefined;
    const groups = dto.groups?.trim() ? normaliseGroups(dto.groups) : undefined;
    const models = dto.models?.trim() ? normaliseModels(dto.models) : undefined;
    const priority = dto.priority ?? undefined;
    const weight = dto.weight ?? undefined;
    const renames = newTag !== null && newTag !== dto.tag;
    if (!renames && [modelMapping, groups, models, priority, weight].every((value) => value === undefined)) {
      throw new AppError('channel.tag_no_changes');
    }
    const count = await this.transactions.run(async (manager) => {
      const tagged = await this.loadTag(manager, dto.tag);
      const before = tagged.map((channel) => ({ ...channel }));
      for (const channel of tagged) {
        if (renames) channel.tag = newTag;
        if (modelMapping !== undefined) channel.model_mapping = modelMapping;
        if (groups !== undefined) channel.group = groups;
        if (models !== undefined) channel.models = models;
        if (priority !== undefined) channel.priority = priority;
        if (weight !== undefined) channel.weight = weight;
      }
      await this.recordEach(actor, 'edit_tag', before, tagged, manager);
      await this.writeEdits(manager, before, tagged);
      return tagged.length;
    });
    await this.invalidate();
    return count;
  }

  async setTagStatus(tag: string, status: typeof CHANNEL_STATUS_ENABLED | typeof CHANNEL_STATUS_MANUALLY_DISABLED, actor: AuthenticatedUser): Promise<number> {
    const count = await this.transactions.run(async (manager) => {
      const tagged = await this.loadTag(manager, tag);
      const before = tagged.map((channel) => ({ ...channel }));
      for (const channel of tagged) {
        if (status === CHANNEL_STATUS_ENABLED && channel.status !== CHANNEL_STATUS_ENABLED) channel.channel_info = serialiseChannelKeyInfo(withoutAutoDisabledKeys(parseChannelKeyInfo(channel.channel_info)));
        channel.status = status;
      }
      await this.recordEach(actor, status === CHANNEL_STATUS_ENABLED ? 'enable_tag' : 'disable_tag', before, tagged, manager);
      await this.writeEdits(manager, before, tagged);
      return tagged.length;
    });
    await this.invalidate();
    return count;
  }

  /**
   * The automatic status move (the monitor's disable and re-enable): status `to` with the reason,
   * and the channel's abilities with it, only if the channel still has status `from`. One
   * conditional write decides, so two instances or two tests never both act on one failure;
   * answers whether this call moved it. The channel caches reload either way: a caller may have
   * taken the channel out of its own copy already.
   */
  async setStatus(channelId: number, from: number, to: number, reason: string): Promise<boolean> {
    const changed = await this.transactions.run(async (manager) => {
      const result = await manager.update(ChannelEntity, { id: channelId, status: from }, statusColumns(to, reason));
      if (!result.affected) return false;
      await this.abilities.setEnabled(manager, channelId, to === CHANNEL_STATUS_ENABLED);
      return true;
    });
    await this.invalidate();
    return changed;
  }

  enabledModels(): Promise<string[]> {
    return this.abilities.enabledModels();
  }

  /** Channel type → the priced model names (shipped and set by the admin) that type serves. */
  modelsByChannelType(): Record<number, string[]> {
    return modelsByChannelType([...Object.keys(this.options.get('ModelRatio')), ...Object.keys(this.options.get('ModelPrice'))]);
  }

  /** Every model name the gateway knows: those channels list, and those with a price or ratio. */
  async knownModels(): Promise<KnownModel[]> {
    const ownerByModel = new Map<string, string>();
    const rows = await this.channels.find({ select: { models: true, type: true }, order: { id: 'ASC' } });
    for (const { models, type } of rows) {
      for (const model of splitList(models)) if (!ownerByModel.has(model)) ownerByModel.set(model, CHANNEL_TYPES[type] ?? 'custom');
    }
    for (const option of ['ModelRatio', 'ModelPrice'] as const) {
      for (const model of Object.keys(this.options.get(option))) if (!ownerByModel.has(model)) ownerByModel.set(model, 'custom');
    }
    return [...ownerByModel.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, owned_by]) => ({ id, object: 'model', created: 0, owned_by }));
  }

  private async listChannels(query: ChannelListQuery): Promise<Page<ChannelView>> {
    const [rows, total] = await this.orderedQuery(query).skip(query.page.offset).take(query.page.pageSize).getManyAndCount();
    return toPage(query.page, total, rows.map(this.view));
  }

  /**
   * Tags are grouped in memory: channel tables hold hundreds of rows, not millions, and a
   * tag takes the place in the order of its best-ranked channel.
   */
  private async listByTag(query: ChannelListQuery): Promise<Page<ChannelListRow>> {
    const ordered = await this.orderedQuery(query).select(['channel.id', 'channel.tag']).getMany();
    const rows: { tag: string | null; ids: number[] }[] = [];
    const rowByTag = new Map<string, { tag: string | null; ids: number[] }>();
    for (const { id, tag } of ordered) {
      if (!tag) {
        rows.push({ tag: null, ids: [id] });
        continue;
      }
      let row = rowByTag.get(tag);
      if (!row) {
        row = { tag, ids: [] };
        rowByTag.set(tag, row);
        rows.push(row);
      }
      row.ids.push(id);
    }
    const pageRows = rows.slice(query.page.offset, query.page.offset + query.page.pageSize);
    const entities = await this.channels.findBy({ id: In(pageRows.flatMap((row) => row.ids)) });
    const byId = new Map(entities.map((channel) => [channel.id, channel]));
    const items: ChannelListRow[] = [];
    for (const row of pageRows) {
      // A channel deleted between the two reads simply drops out of the page.
      const children = row.ids.map((id) => byId.get(id)).filter((channel): channel is ChannelEntity => channel !== undefined);
      if (children.length === 0) continue;
      items.push(row.tag === null ? this.view(children[0]) : toTagRow(row.tag, children, this.view));
    }
    return toPage(query.page, rows.length, items);
  }

  /** Keyword: the id exactly, or a literal substring of name, tag or base URL. Group and model go through the abilities. */
  private orderedQuery({ filter, idSort }: ChannelListQuery): SelectQueryBuilder<ChannelEntity> {
    const query = this.channels.createQueryBuilder('channel');
    const keyword = filter.keyword?.trim();
    if (keyword) {
      query.andWhere(
        new Brackets((where) => {
          if (/^\d{1,9}$/.test(keyword)) where.orWhere('channel.id = :id', { id: Number(keyword) });
          const pattern = likeContains(keyword);
          for (const column of ['name', 'tag', 'base_url']) where.orWhere(likeCondition(query.connection, `channel.${column}`, 'keyword'), { keyword: pattern });
        }),
      );
    }
    const group = filter.group?.trim();
    if (group) {
      const served = query.subQuery().select('ability.channel_id').from(AbilityEntity, 'ability').where('ability.group = :group').getQuery();
      query.andWhere(`channel.id IN ${served}`, { group });
    }
    const model = filter.model?.trim();
    if (model) {
      const served = query.subQuery().select('ability.channel_id').from(AbilityEntity, 'ability').where(likeCondition(query.connection, 'ability.model', 'model')).getQuery();
      query.andWhere(`channel.id IN ${served}`, { model: likeContains(model) });
    }
    if (idSort) query.orderBy('channel.id', 'DESC');
    else query.orderBy('channel.priority', 'DESC').addOrderBy('channel.id', 'DESC');
    return query;
  }

  /** Before any transaction: the guard may resolve the host, and a SQLite transaction awaits only database calls. */
  private async assertBaseUrlAllowed(dto: CreateChannelDto | UpdateChannelDto): Promise<void> {
    if (dto.base_url != null) await this.outbound.assertBaseUrlAllowed(normaliseBaseUrl(dto.base_url));
  }

  /** Copies the optional fields present in the body onto the channel, checked and normalised. */
  private applyFields(channel: ChannelEntity, dto: CreateChannelDto | UpdateChannelDto): void {
    if (dto.type != null) channel.type = dto.type;
    if (dto.group != null) channel.group = normaliseGroups(dto.group);
    if (dto.base_url != null) channel.base_url = normaliseBaseUrl(dto.base_url);
    if (dto.openai_organization != null) channel.openai_organization = dto.openai_organization.trim();
    if (dto.test_model != null) channel.test_model = dto.test_model.trim();
    if (dto.other !== undefined) channel.other = dto.other?.trim() || null;
    if (dto.tag !== undefined) channel.tag = normaliseTag(dto.tag);
    if (dto.model_mapping !== undefined) channel.model_mapping = normaliseModelMapping(dto.model_mapping);
    if (dto.status_code_mapping !== undefined) channel.status_code_mapping = normaliseJsonObject('status_code_mapping', dto.status_code_mapping);
    if (dto.setting !== undefined) channel.setting = normaliseJsonObject('setting', dto.setting);
    if (dto.param_override !== undefined) channel.param_override = normaliseJsonObject('param_override', dto.param_override);
    if (dto.priority != null) channel.priority = dto.priority;
    if (dto.weight != null) channel.weight = dto.weight;
    if (dto.auto_ban != null) channel.auto_ban = dto.auto_ban;
    if (dto.max_input_tokens != null) channel.max_input_tokens = dto.max_input_tokens;
    if (dto.status != null) channel.status = dto.status;
    const otherField = channelTypeRow(channel.type)?.otherField;
    if (otherField?.filledOnSave && !channel.other) channel.other = otherField.default;
    if (otherField?.required && !channel.other) throw new AppError('channel.other_required', { field: otherField.meaning });
  }

  /** Writes the edited columns that changed from `before` to `after` (index by index), and the channels' abilities. */
  private async writeEdits(manager: EntityManager, before: ChannelEntity[], after: ChannelEntity[]): Promise<void> {
    for (const [index, channel] of after.entries()) {
      const changed: Partial<ChannelEntity> = {};
      for (const column of EDITED_COLUMNS) if (channel[column] !== before[index][column]) Object.assign(changed, { [column]: channel[column] });
      if (Object.keys(changed).length > 0) await manager.update(ChannelEntity, { id: channel.id }, changed);
    }
    await this.abilities.replaceForChannels(manager, after);
  }

  /** Deletes the channels the selector picks, with their abilities; answers how many. */
  private async deleteWhere(actor: AuthenticatedUser, select: (manager: EntityManager) => Promise<number[]>): Promise<number> {
    const count = await this.transactions.run(async (manager) => {
      const ids = await select(manager);
      if (ids.length === 0) return 0;
      await this.abilities.deleteForChannels(manager, ids);
      await manager.delete(ChannelEntity, { id: In(ids) });
      await this.audit.record(actor, { entity: 'channel', entityId: ids, action: 'delete' }, manager);
      return ids.length;
    });
    if (count > 0) await this.invalidate();
    return count;
  }

  /** The channel's key in clear, or undefined when this CRYPTO_SECRET cannot read it (any new key is then a change). */
  private storedKey(channel: ChannelEntity): string | undefined {
    try {
      return this.secretBox.decrypt(channel.key);
    } catch {
      return undefined;
    }
  }

  /** One audit row per channel a bulk edit changed, with its own fields. */
  private async recordEach(actor: AuthenticatedUser, action: string, before: ChannelEntity[], after: ChannelEntity[], manager: EntityManager): Promise<void> {
    for (const [index, channel] of after.entries()) {
      const changes = fieldChanges(before[index], channel, AUDITED_FIELDS);
      if (Object.keys(changes).length > 0) await this.audit.record(actor, { entity: 'channel', entityId: channel.id, action, changes }, manager);
    }
  }

  /** `forEdit`: the row stays locked until the edit commits, so two edits of one channel take turns (their abilities too). */
  private async load(manager: EntityManager, id: number, forEdit = false): Promise<ChannelEntity> {
    const channel = await manager.findOne(ChannelEntity, { where: { id }, ...(forEdit && editLock(manager)) });
    if (!channel) throw new AppError('channel.not_found');
    return channel;
  }

  private async loadTag(manager: EntityManager, tag: string): Promise<ChannelEntity[]> {
    const tagged = await manager.find(ChannelEntity, { where: { tag }, order: { id: 'ASC' }, ...editLock(manager) });
    if (tagged.length === 0) throw new AppError('channel.tag_not_found');
    return tagged;
  }

  private invalidate(): Promise<void> {
    return this.cacheSync.invalidate(CACHE_NAMES.channels);
  }
}

/** Row locks for an edit's read; SQLite has none and needs none (it runs one write transaction at a time). */
function editLock(manager: EntityManager): { lock?: { mode: 'pessimistic_write' } } {
  return sqlDialect(manager) === 'sqlite' ? {} : { lock: { mode: 'pessimistic_write' } };
}

/**
 * A channel may be saved as a type something serves. A retired type (PaLM2) stays on a channel
 * that already has it, so an imported channel can still be edited, disabled or deleted through
 * the editor's full save; no channel is created as one or switched to one.
 */
function assertSavableType(type: number | undefined, current?: number): void {
  if (type == null || type === current || SAVABLE_CHANNEL_TYPE_IDS.includes(type)) return;
  if (channelTypeRow(type)?.servedBy === 'retired') throw new AppError('channel.type_retired', { name: CHANNEL_TYPES[type] });
  throw new AppError('channel.invalid_type');
}
