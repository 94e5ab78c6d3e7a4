import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { splitList } from './channel-fields';
import { AbilityEntity } from './entities/ability.entity';
import { CHANNEL_STATUS_ENABLED, ChannelEntity } from './entities/channel.entity';

/** Rows per INSERT: far below SQLite's and MySQL's bound-parameter limits. */
const INSERT_CHUNK = 200;

/** Sorted the same on every database, whatever its collation. */
const byCodePoint = (names: string[]) => [...names].sort();

type AbilitySource = Pick<ChannelEntity, 'id' | 'models' | 'group' | 'status' | 'priority' | 'weight' | 'tag'>;

/** One ability row per group × model of a channel, mirroring its status, priority, weight and tag. */
export function abilitiesOf(channel: AbilitySource): Partial<AbilityEntity>[] {
  const rows: Partial<AbilityEntity>[] = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === CHANNEL_STATUS_ENABLED,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      });
    }
  }
  return rows;
}

/** The routing table the relay reads: written only together with the channels it mirrors. */
@Injectable()
export class AbilitiesRepository {
  constructor(@InjectRepository(AbilityEntity) private readonly repository: Repository<AbilityEntity>) {}

  /** Rewrites the abilities of these channels; call inside the transaction that wrote them. */
  async replaceForChannels(manager: EntityManager, channels: AbilitySource[]): Promise<void> {
    if (channels.length === 0) return;
    await this.deleteForChannels(
      manager,
      channels.map((channel) => channel.id),
    );
    const rows = channels.flatMap(abilitiesOf);
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await manager.insert(AbilityEntity, rows.slice(start, start + INSERT_CHUNK));
    }
  }

  /** Routes a channel in or out with its status; call inside the transaction that wrote the status. */
  async setEnabled(manager: EntityManager, channelId: number, enabled: boolean): Promise<void> {
    await manager.update(AbilityEntity, { channel_id: channelId }, { enabled });
  }

  async deleteForChannels(manager: EntityManager, channelIds: number[]): Promise<void> {
    if (channelIds.length) await manager.delete(AbilityEntity, { channel_id: In(channelIds) });
  }

  async deleteAll(manager: EntityManager): Promise<void> {
    await manager.createQueryBuilder().delete().from(AbilityEntity).execute();
  }

  /** Distinct model names some enabled channel serves, sorted. */
  async enabledModels(): Promise<string[]> {
    const rows = await this.repository
      .createQueryBuilder('ability')
      .select('DISTINCT ability.model', 'model')
      .where('ability.enabled = :enabled', { enabled: true })
      .getRawMany<{ model: string }>();
    return byCodePoint(rows.map((row) => row.model));
  }

  /** Model → the groups in which an enabled channel serves it; both sorted. */
  async enabledGroupsByModel(): Promise<Map<string, string[]>> {
    const rows = await this.repository
      .createQueryBuilder('ability')
      .select('ability.model', 'model')
      .addSelect('ability.group', 'group')
      .where('ability.enabled = :enabled', { enabled: true })
      .groupBy('ability.model')
      .addGroupBy('ability.group')
      .getRawMany<{ model: string; group: string }>();
    const byModel = new Map<string, string[]>();
    for (const { model, group } of rows) byModel.set(model, [...(byModel.get(model) ?? []), group]);
    return new Map(byCodePoint([...byModel.keys()]).map((model) => [model, byCodePoint(byModel.get(model)!)]));
  }

  /** Distinct model names enabled in any of these groups, sorted. */
  async enabledModelsInGroups(groups: string[]): Promise<string[]> {
    if (groups.length === 0) return [];
    const rows = await this.repository
      .createQueryBuilder('ability')
      .select('DISTINCT ability.model', 'model')
      .where('ability.enabled = :enabled', { enabled: true })
      .andWhere('ability.group IN (:...groups)', { groups })
      .getRawMany<{ model: string }>();
    return byCodePoint(rows.map((row) => row.model));
  }
}
