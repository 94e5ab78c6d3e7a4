import { Injectable } from '@nestjs/common';
import { MAX_ROW_ID } from '../../common/http/query-fields';
import { AuditService, fieldChanges, secretChange } from '../audit/audit.service';
import type { AuditFieldChange } from '../audit/audit.wire';
import { SessionsService } from '../sessions/sessions.service';
import { USERNAME_PATTERN } from '../users/dto/fields';
import { ROLE_ROOT, USER_STATUS_DISABLED, USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import { UserManagementService } from '../users/user-management.service';
import { EditableUserColumn, UsersService } from '../users/users.service';
import { listResponse } from './scim-discovery';
import { badRequest, notFound, ScimError } from './scim-error';
import { parseScimFilter } from './scim-filter';
import { parsePatchRequest, scimBoolean, scimString, type ScimPatchOperation } from './scim-patch';
import { auditActor, listWindow, toScimUser, type ScimContext, type ScimListQuery, type ScimUserResource } from './scim-resources';
import { ScimUsersRepository, type UserCondition } from './scim-users.repository';

/** The attributes of a User this gateway keeps, as one request leaves them. */
interface UserDraft {
  userName: string;
  /** '' means "the username". */
  displayName: string;
  email: string;
  externalId: string;
  active: boolean;
  /** A new password, when the request sets one. */
  password?: string;
}

/** The columns SCIM writes, compared for the audit log (the password only as changed). */
const AUDITED_FIELDS = ['username', 'display_name', 'email', 'scim_external_id'] as const satisfies readonly (keyof UserEntity)[];

const LIMITS = { userName: 64, displayName: 64, email: 128, externalId: 191 } as const;
/** bcrypt reads the first 72 bytes; a longer password would be cut without a word. */
const PASSWORD_BYTES = { min: 8, max: 72 };

type JsonObject = Record<string, unknown>;

function asObject(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalidSyntax', 'The request body must be a JSON object');
  return body as JsonObject;
}

/** The account e-mail from a SCIM `emails` value: the primary address, else the first. */
function primaryEmail(value: unknown): string {
  if (value === null || value === undefined) return '';
  const entries = Array.isArray(value) ? value : [value];
  const chosen = entries.find((entry) => typeof entry === 'object' && entry !== null && scimPrimary((entry as JsonObject).primary)) ?? entries[0];
  if (chosen === undefined) return '';
  if (typeof chosen === 'string') return chosen;
  if (typeof chosen !== 'object' || chosen === null) throw badRequest('invalidValue', '"emails" must be a list of {value, type, primary}');
  return chosen.value === undefined ? '' : scimString(chosen.value, 'emails.value');
}

function scimPrimary(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

/** The display name a User resource carries: displayName, else name.formatted, else given and family name. */
function displayNameOf(resource: JsonObject): string {
  if (resource.displayName !== undefined && resource.displayName !== null) return scimString(resource.displayName, 'displayName');
  const name = resource.name;
  if (typeof name !== 'object' || name === null) return '';
  const { formatted, givenName, familyName } = name as JsonObject;
  if (typeof formatted === 'string' && formatted.trim()) return formatted;
  return [givenName, familyName].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
}

/** The userName as it will be stored: trimmed, within the column, no whitespace or invisible characters. */
function checkedDraft(draft: UserDraft): UserDraft {
  const userName = draft.userName.trim();
  if (!userName) throw badRequest('invalidValue', '"userName" is required');
  if (userName.length > LIMITS.userName) throw badRequest('invalidValue', `"userName" may have at most ${LIMITS.userName} characters`);
  if (!USERNAME_PATTERN.test(userName)) throw badRequest('invalidValue', '"userName" may not contain whitespace, control or invisible characters');
  const displayName = draft.displayName.trim();
  if (displayName.length > LIMITS.displayName) throw badRequest('invalidValue', `"displayName" may have at most ${LIMITS.displayName} characters`);
  const email = draft.email.trim().toLowerCase();
  if (email.length > LIMITS.email || (email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email))) throw badRequest('invalidValue', `"emails" must hold an e-mail address of at most ${LIMITS.email} characters`);
  const externalId = draft.externalId.trim();
  if (externalId.length > LIMITS.externalId) throw badRequest('invalidValue', `"externalId" may have at most ${LIMITS.externalId} characters`);
  if (draft.password !== undefined) {
    const bytes = Buffer.byteLength(draft.password);
    if (bytes < PASSWORD_BYTES.min || bytes > PASSWORD_BYTES.max) throw badRequest('invalidValue', `"password" must have ${PASSWORD_BYTES.min} to ${PASSWORD_BYTES.max} bytes`);
  }
  return { ...draft, userName, displayName, email, externalId };
}

/** Maps a Users filter onto columns; attributes this gateway does not keep cannot be filtered on. */
function userConditions(filter: string | undefined): UserCondition[] | null {
  if (filter === undefined || filter.trim() === '') return [];
  const conditions: UserCondition[] = [];
  for (const { path, value } of parseScimFilter(filter)) {
    if (path === 'active') {
      conditions.push({ column: 'active', value: scimBoolean(value, 'active') });
      continue;
    }
    if (typeof value !== 'string') throw badRequest('invalidFilter', `"${path}" is compared with a string`);
    if (path === 'id') {
      const id = /^\d{1,10}$/.test(value) ? Number(value) : 0;
      // An id that names no row matches nothing (a list of none, not an error).
      if (id < 1 || id > MAX_ROW_ID) return null;
      conditions.push({ column: 'id', value: id });
    } else if (path === 'username') conditions.push({ column: 'username', value });
    else if (path === 'externalid') conditions.push({ column: 'scim_external_id', value });
    else if (path === 'emails' || path === 'emails.value') conditions.push({ column: 'email', value });
    else throw badRequest('invalidFilter', `Filtering Users on "${path}" is not supported (userName, externalId, id, emails.value, active are)`);
  }
  return conditions;
}

/**
 * SCIM Users over the gateway's accounts. Creation goes through the account service (welcome
 * quota through the ledger, like every new account); changes write only the columns they
 * change; `active: false` disables the account and signs it out everywhere, so its console
 * session and its API keys stop at once; DELETE disables and then deletes it the gateway's
 * way (the row, its logs and its ledger stay). Every change is in the audit log, the token
 * named as the actor. The root account is never changed from here.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly users: UsersService,
    private readonly management: UserManagementService,
    private readonly repository: ScimUsersRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
  ) {}

  async get(context: ScimContext, id: string): Promise<ScimUserResource> {
    return toScimUser(await this.find(id), context.baseUrl);
  }

  async list(context: ScimContext, query: ScimListQuery) {
    const { startIndex, count } = listWindow(query);
    const conditions = userConditions(query.filter);
    if (conditions === null) return listResponse([], 0, startIndex);
    const [rows, total] = await this.repository.page(conditions, startIndex - 1, count);
    return listResponse(
      rows.map((row) => toScimUser(row, context.baseUrl)),
      total,
      startIndex,
    );
  }

  async create(context: ScimContext, body: unknown): Promise<ScimUserResource> {
    const draft = checkedDraft(this.draftFromResource(asObject(body), undefined));
    if (draft.email && (await this.users.emailTaken(draft.email))) throw new ScimError(409, `The e-mail address ${draft.email} belongs to another account`, 'uniqueness');
    const passwordHash = draft.password ? await this.users.hashPassword(draft.password) : '';
    const created = await this.management.createAccount(
      { username: draft.userName, passwordHash, display_name: draft.displayName, email: draft.email, scim_external_id: draft.externalId },
      undefined,
      async (manager) => {
        if (await this.users.usernameTaken(draft.userName, manager)) throw new ScimError(409, `The userName ${draft.userName} is taken`, 'uniqueness');
      },
    );
    const changes: Record<string, AuditFieldChange> = {};
    for (const field of AUDITED_FIELDS) if (created[field]) changes[field] = { from: null, to: created[field] };
    if (draft.password) changes.password = secretChange();
    if (!draft.active) {
      await this.users.setStatus(created.id, USER_STATUS_DISABLED);
      created.status = USER_STATUS_DISABLED;
      changes.status = { from: null, to: USER_STATUS_DISABLED };
    }
    await this.audit.record(auditActor(context.caller), { entity: 'user', entityId: created.id, action: 'create', changes });
    return toScimUser(created, context.baseUrl);
  }

  /** PUT: the request's attributes replace the stored ones; `active` left out stays as it is. */
  async replace(context: ScimContext, id: string, body: unknown): Promise<ScimUserResource> {
    const target = this.managed(await this.find(id));
    return this.write(context, target, checkedDraft(this.draftFromResource(asObject(body), target)));
  }

  async patch(context: ScimContext, id: string, body: unknown): Promise<ScimUserResource> {
    const operations = parsePatchRequest(body);
    const target = this.managed(await this.find(id));
    const draft: UserDraft = { userName: target.username, displayName: target.display_name, email: target.email, externalId: target.scim_external_id, active: target.status === USER_STATUS_ENABLED };
    for (const operation of operations) applyUserOperation(draft, operation);
    return this.write(context, target, checkedDraft(draft));
  }

  async remove(context: ScimContext, id: string): Promise<void> {
    const target = this.managed(await this.find(id));
    const actor = auditActor(context.caller);
    if (target.status !== USER_STATUS_DISABLED) {
      await this.users.setStatus(target.id, USER_STATUS_DISABLED);
      await this.audit.record(actor, { entity: 'user', entityId: target.id, action: 'disable', changes: { status: { from: target.status, to: USER_STATUS_DISABLED } } });
    }
    await this.users.softDelete(target.id);
    await this.sessions.destroyAllForUser(target.id);
    await this.audit.record(actor, { entity: 'user', entityId: target.id, action: 'delete' });
  }

  /** An account that is not deleted, by SCIM id; 404 otherwise. */
  async find(id: string): Promise<UserEntity> {
    const numeric = /^\d{1,10}$/.test(id) ? Number(id) : 0;
    const user = numeric >= 1 && numeric <= MAX_ROW_ID ? await this.users.findById(numeric) : null;
    if (!user) throw notFound(`No User with id ${id}`);
    return user;
  }

  /** Refuses (403) to change the root account: the identity provider does not own it. */
  managed(user: UserEntity): UserEntity {
    if (user.role >= ROLE_ROOT) throw new ScimError(403, 'The root account is not managed through SCIM');
    return user;
  }

  private draftFromResource(resource: JsonObject, current: UserEntity | undefined): UserDraft {
    if (resource.userName === undefined) throw badRequest('invalidValue', '"userName" is required');
    return {
      userName: scimString(resource.userName, 'userName'),
      displayName: displayNameOf(resource),
      email: primaryEmail(resource.emails),
      externalId: resource.externalId === undefined || resource.externalId === null ? '' : scimString(resource.externalId, 'externalId'),
      active: resource.active === undefined ? (current ? current.status === USER_STATUS_ENABLED : true) : scimBoolean(resource.active, 'active'),
      password: resource.password === undefined ? undefined : scimString(resource.password, 'password'),
    };
  }

  /** Writes what differs from the stored account: the columns, then the status; one audit row each. */
  private async write(context: ScimContext, target: UserEntity, draft: UserDraft): Promise<ScimUserResource> {
    const actor = auditActor(context.caller);
    const columns: Partial<Pick<UserEntity, EditableUserColumn>> = {};
    if (draft.userName !== target.username) {
      if (await this.repository.usernameTakenByOther(draft.userName, target.id)) throw new ScimError(409, `The userName ${draft.userName} is taken`, 'uniqueness');
      columns.username = draft.userName;
    }
    const displayName = draft.displayName || draft.userName;
    if (displayName !== target.display_name) columns.display_name = displayName;
    if (draft.email !== target.email) {
      if (draft.email && (await this.repository.emailTakenByOther(draft.email, target.id))) throw new ScimError(409, `The e-mail address ${draft.email} belongs to another account`, 'uniqueness');
      columns.email = draft.email;
    }
    if (draft.externalId !== target.scim_external_id) columns.scim_external_id = draft.externalId;
    // Okta sends the password with every profile push when it syncs passwords: only a different one is a change.
    if (draft.password !== undefined && !(await this.users.passwordMatches(target, draft.password))) columns.password = await this.users.hashPassword(draft.password);
    if (Object.keys(columns).length > 0) {
      await this.users.updateColumns(target.id, columns);
      const changes = fieldChanges(target, { ...target, ...columns }, AUDITED_FIELDS);
      if (columns.password) changes.password = secretChange();
      await this.audit.record(actor, { entity: 'user', entityId: target.id, action: 'update', changes });
      // A new password signs the account out everywhere, as a password reset does.
      if (columns.password) await this.sessions.destroyAllForUser(target.id);
    }
    const updated: UserEntity = { ...target, ...columns };
    const status = draft.active ? USER_STATUS_ENABLED : USER_STATUS_DISABLED;
    if (status !== target.status) {
      await this.users.setStatus(target.id, status);
      if (status === USER_STATUS_DISABLED) await this.sessions.destroyAllForUser(target.id);
      await this.audit.record(actor, { entity: 'user', entityId: target.id, action: draft.active ? 'enable' : 'disable', changes: { status: { from: target.status, to: status } } });
      updated.status = status;
    }
    return toScimUser(updated, context.baseUrl);
  }
}

/**
 * One PATCH operation on a User. Attributes the gateway does not keep (title, phone numbers,
 * the enterprise extension, name parts: the display name follows displayName) are accepted
 * and ignored, so an identity provider's default mapping provisions without errors.
 */
function applyUserOperation(draft: UserDraft, { op, path, value }: ScimPatchOperation): void {
  const removing = op === 'remove';
  switch (path.attribute) {
    case 'active':
      if (!removing) draft.active = scimBoolean(value, 'active');
      return;
    case 'username':
      if (removing) throw new ScimError(400, '"userName" is required and cannot be removed', 'mutability');
      draft.userName = scimString(value, 'userName');
      return;
    case 'displayname':
      draft.displayName = removing ? '' : scimString(value, 'displayName');
      return;
    case 'externalid':
      draft.externalId = removing ? '' : scimString(value, 'externalId');
      return;
    case 'password':
      if (!removing) draft.password = scimString(value, 'password');
      return;
    case 'emails':
      if (removing) draft.email = '';
      // `emails[type eq "work"].value` (Entra) carries the address itself; `emails` carries the list.
      else draft.email = path.subAttribute === 'value' ? scimString(value, 'emails.value') : primaryEmail(value);
      return;
    default:
      return;
  }
}
