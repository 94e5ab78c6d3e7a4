import { badRequest } from './scim-error';
import { GROUP_SCHEMA, MAX_LIST_COUNT, USER_SCHEMA } from './scim-discovery';
import { USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import type { GroupMember } from './scim-users.repository';
import type { ScimCaller } from './scim-tokens.service';
import type { AuditActor } from '../audit/audit.service';

/** Who calls and where the resources live: every SCIM service call gets it. */
export interface ScimContext {
  caller: ScimCaller;
  /** `<ServerAddress>/scim/v2`, for `meta.location` and member `$ref`s. */
  baseUrl: string;
}

/** The query of a list request (RFC 7644 §3.4.2), as sent. */
export interface ScimListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  excludedAttributes?: string;
}

/** The audit log's actor for a change an identity provider made: no account, the token's name. */
export function auditActor(caller: ScimCaller): AuditActor {
  return { id: 0, username: `SCIM: ${caller.tokenName}`.slice(0, 64), ip: caller.ip };
}

/** 1-based `startIndex` (below 1 taken as 1) and `count` (0 to MAX_LIST_COUNT, default 100). */
export function listWindow(query: ScimListQuery): { startIndex: number; count: number } {
  const integer = (raw: string | undefined, name: string, fallback: number) => {
    if (raw === undefined || raw === '') return fallback;
    if (!/^-?\d{1,10}$/.test(raw.trim())) throw badRequest('invalidValue', `"${name}" must be an integer`);
    return Number(raw.trim());
  };
  return {
    startIndex: Math.max(1, integer(query.startIndex, 'startIndex', 1)),
    count: Math.min(MAX_LIST_COUNT, Math.max(0, integer(query.count, 'count', 100))),
  };
}

export function userLocation(baseUrl: string, id: number): string {
  return `${baseUrl}/Users/${id}`;
}

export function groupLocation(baseUrl: string, name: string): string {
  return `${baseUrl}/Groups/${encodeURIComponent(name)}`;
}

/** An account as a SCIM User: never its password, balance or keys. */
export function toScimUser(user: UserEntity, baseUrl: string) {
  return {
    schemas: [USER_SCHEMA],
    id: String(user.id),
    ...(user.scim_external_id ? { externalId: user.scim_external_id } : {}),
    userName: user.username,
    name: { formatted: user.display_name },
    displayName: user.display_name,
    ...(user.email ? { emails: [{ value: user.email, type: 'work', primary: true }] } : {}),
    active: user.status === USER_STATUS_ENABLED,
    groups: [{ value: user.group, display: user.group, $ref: groupLocation(baseUrl, user.group) }],
    meta: { resourceType: 'User', created: new Date(user.created_time * 1000).toISOString(), location: userLocation(baseUrl, user.id) },
  };
}

/** A gateway group as a SCIM Group; its id is its name. */
export function toScimGroup(name: string, members: readonly GroupMember[] | undefined, baseUrl: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: name,
    displayName: name,
    ...(members ? { members: members.map((member) => ({ value: String(member.id), display: member.username, $ref: userLocation(baseUrl, member.id), type: 'User' })) } : {}),
    meta: { resourceType: 'Group', location: groupLocation(baseUrl, name) },
  };
}

export type ScimUserResource = ReturnType<typeof toScimUser>;
export type ScimGroupResource = ReturnType<typeof toScimGroup>;
