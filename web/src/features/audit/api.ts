import type { AuditEntity, AuditFieldChange, AuditLogView } from '@shared/audit/audit.wire';
import { api, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { AuditEntity, AuditFieldChange, AuditLogView };

export const AUDIT_ENTITIES: readonly AuditEntity[] = ['option', 'channel', 'user', 'token', 'redemption', 'scim_token'];

/** The filters of the audit page; empty strings and 0 mean "any". */
export interface AuditFilters {
  actor: string;
  entity: AuditEntity | '';
  start_timestamp: number;
  end_timestamp: number;
}

export const auditApi = {
  list: (filters: AuditFilters, page: number, pageSize: number) =>
    api.get<Page<AuditLogView>>('/api/audit/', {
      query: {
        actor: filters.actor || undefined,
        entity: filters.entity || undefined,
        start_timestamp: filters.start_timestamp || undefined,
        end_timestamp: filters.end_timestamp || undefined,
        p: page,
        page_size: pageSize,
      },
    }),
};

/** A change's value as one line: JSON for objects, the text itself for strings, a dash for null. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
