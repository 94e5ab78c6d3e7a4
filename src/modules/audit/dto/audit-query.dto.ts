import { IsIn, IsOptional } from 'class-validator';
import { OptionalIdQuery, OptionalTextQuery, OptionalTimestampQuery } from '../../../common/http/query-fields';
import { AUDIT_ENTITIES } from '../audit.service';
import type { AuditEntity } from '../audit.wire';

/** Filters of the audit log: who, what, and when (unix seconds, inclusive). */
export class AuditQueryDto {
  @IsOptional()
  p?: string;

  @IsOptional()
  page_size?: string;

  /** The actor's username, exactly. */
  @OptionalTextQuery(64)
  actor?: string;

  @OptionalIdQuery()
  actor_id?: number;

  @IsOptional()
  @IsIn(AUDIT_ENTITIES, { message: 'audit.invalid_entity' })
  entity?: AuditEntity;

  @OptionalTextQuery(191)
  entity_id?: string;

  @OptionalTimestampQuery()
  start_timestamp?: number;

  @OptionalTimestampQuery()
  end_timestamp?: number;
}
