import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Page, PageQuery, toPage } from '../../common/http/pagination';
import { nowSeconds } from '../../database/columns';
import type { AuditEntity, AuditFieldChange, AuditLogView } from './audit.wire';
import { AuditLogEntity } from './entities/audit-log.entity';

export const AUDIT_ENTITIES: readonly AuditEntity[] = ['option', 'channel', 'user', 'token', 'redemption', 'scim_token'];

/** Who made a change: the signed-in administrator and the address the request came from. */
export interface AuditActor {
  id: number;
  username: string;
  ip?: string;
}

/** One change to record. */
export interface AuditRecord {
  entity: AuditEntity;
  /** The id (or ids, of a bulk change) or the settings key. */
  entityId: string | number | readonly number[];
  action: string;
  changes?: Record<string, AuditFieldChange>;
  /** The ledger's log row, when the change moved quota. */
  logId?: number;
}

export interface AuditFilter {
  actor?: string;
  actorId?: number;
  entity?: AuditEntity;
  entityId?: string;
  start?: number;
  end?: number;
}

const SECRET_CHANGE: AuditFieldChange = { changed: true };

/**
 * The fields that differ between two states of a row, old and new values side by side; a
 * secret field (a channel key, a password) only says that it changed.
 */
export function fieldChanges<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[], secretFields: readonly (keyof T & string)[] = []): Record<string, AuditFieldChange> {
  const changes: Record<string, AuditFieldChange> = {};
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (from === to) continue;
    changes[field] = secretFields.includes(field) ? SECRET_CHANGE : { from, to };
  }
  return changes;
}

/** A secret's change as the audit log shows it. */
export function secretChange(): AuditFieldChange {
  return SECRET_CHANGE;
}

/**
 * The administrators' audit log. Rows are only ever added (and, after the retention time,
 * removed); a change made in a transaction records its row in that transaction, so the
 * row exists exactly when the change does.
 */
@Injectable()
export class AuditService {
  constructor(@InjectRepository(AuditLogEntity) private readonly rows: Repository<AuditLogEntity>) {}

  async record(actor: AuditActor, record: AuditRecord, manager?: EntityManager): Promise<void> {
    const entityId = typeof record.entityId === 'object' ? record.entityId.join(',') : String(record.entityId);
    const row: Omit<AuditLogEntity, 'id'> = {
      created_at: nowSeconds(),
      actor_id: actor.id,
      actor_username: actor.username,
      actor_ip: (actor.ip ?? '').slice(0, 64),
      entity: record.entity,
      entity_id: entityId.length > 191 ? `${entityId.slice(0, 188)}...` : entityId,
      action: record.action,
      changes: JSON.stringify(record.changes ?? {}),
      log_id: record.logId ?? 0,
    };
    await (manager ?? this.rows.manager).insert(AuditLogEntity, row);
  }

  async list(filter: AuditFilter, page: PageQuery): Promise<Page<AuditLogView>> {
    const query = this.rows.createQueryBuilder('audit').orderBy('audit.id', 'DESC').skip(page.offset).take(page.pageSize);
    if (filter.actor !== undefined) query.andWhere('audit.actor_username = :actor', { actor: filter.actor });
    if (filter.actorId !== undefined) query.andWhere('audit.actor_id = :actorId', { actorId: filter.actorId });
    if (filter.entity !== undefined) query.andWhere('audit.entity = :entity', { entity: filter.entity });
    if (filter.entityId !== undefined) query.andWhere('audit.entity_id = :entityId', { entityId: filter.entityId });
    if (filter.start !== undefined) query.andWhere('audit.created_at >= :start', { start: filter.start });
    if (filter.end !== undefined) query.andWhere('audit.created_at <= :end', { end: filter.end });
    const [rows, total] = await query.getManyAndCount();
    return toPage(page, total, rows.map(toAuditLogView));
  }

  /** Removes the rows older than `seconds`; answers how many went. */
  async deleteOlderThan(seconds: number): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().from(AuditLogEntity).where('created_at < :cutoff', { cutoff: nowSeconds() - seconds }).execute();
    return result.affected ?? 0;
  }
}

function toAuditLogView(row: AuditLogEntity): AuditLogView {
  let changes: Record<string, AuditFieldChange> = {};
  try {
    changes = JSON.parse(row.changes ?? '{}') as Record<string, AuditFieldChange>;
  } catch {
    // A row is written by record() only; an unreadable one still lists, without its fields.
  }
  return {
    id: row.id,
    created_at: row.created_at,
    actor_id: row.actor_id,
    actor_username: row.actor_username,
    actor_ip: row.actor_ip,
    entity: row.entity as AuditEntity,
    entity_id: row.entity_id,
    action: row.action,
    changes,
    log_id: row.log_id,
  };
}
