import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { OptionsService } from '../options/options.service';
import { UsersService } from '../users/users.service';
import { listResponse } from './scim-discovery';
import { badRequest, notFound, ScimError } from './scim-error';
import { parseScimFilter } from './scim-filter';
import { parsePatchRequest, scimString, type ScimPatchOperation } from './scim-patch';
import { auditActor, listWindow, toScimGroup, type ScimContext, type ScimGroupResource, type ScimListQuery } from './scim-resources';
import { ScimUsersRepository } from './scim-users.repository';
import { ScimUsersService } from './scim-users.service';

/** Where a user removed from a group goes: every account is in exactly one group. */
const DEFAULT_GROUP = 'default';

/** The user ids of a `members` value: `[{"value": "7"}, …]` (a single object is taken as a list of one). */
function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  return entries.map((entry) => {
    const id = typeof entry === 'object' && entry !== null ? (entry as { value?: unknown }).value : undefined;
    if (typeof id === 'number') return String(id);
    return scimString(id, 'members.value');
  });
}

/**
 * SCIM Groups over the gateway's user groups (the keys of GroupRatio, which carry prices and
 * so are made by an administrator, never by the identity provider). A group's id is its name.
 * A user is in one group at a time: adding it to a group moves it there, removing it from its
 * group moves it back to "default". Each move is an account change in the audit log.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly options: OptionsService,
    private readonly users: UsersService,
    private readonly repository: ScimUsersRepository,
    private readonly scimUsers: ScimUsersService,
    private readonly audit: AuditService,
  ) {}

  async get(context: ScimContext, id: string, query: ScimListQuery): Promise<ScimGroupResource> {
    const name = this.resolve(id);
    return toScimGroup(name, membersWanted(query) ? await this.repository.membersOf(name) : undefined, context.baseUrl);
  }

  async list(context: ScimContext, query: ScimListQuery) {
    const { startIndex, count } = listWindow(query);
    let names = this.groupNames();
    for (const { path, value } of query.filter?.trim() ? parseScimFilter(query.filter) : []) {
      if (typeof value !== 'string') throw badRequest('invalidFilter', `"${path}" is compared with a string`);
      if (path === 'displayname') names = names.filter((name) => name.toLowerCase() === value.toLowerCase());
      else if (path === 'id') names = names.filter((name) => name === value);
      else if (path === 'members.value' || path === 'members') {
        // Entra asks whether a user is a member with `id eq "g" and members[value eq "u"]`.
        const member = await this.scimUsers.find(value).catch(() => null);
        names = names.filter((name) => member?.group === name);
      } else throw badRequest('invalidFilter', `Filtering Groups on "${path}" is not supported (displayName, id, members.value are)`);
    }
    const page = names.slice(startIndex - 1, startIndex - 1 + count);
    const withMembers = membersWanted(query);
    const resources: ScimGroupResource[] = [];
    for (const name of page) resources.push(toScimGroup(name, withMembers ? await this.repository.membersOf(name) : undefined, context.baseUrl));
    return listResponse(resources, names.length, startIndex);
  }

  /** POST claims an existing gateway group (Okta's and Entra's group push) and adds the members given. */
  async create(context: ScimContext, body: unknown): Promise<ScimGroupResource> {
    const resource = asGroupResource(body);
    const displayName = scimString(resource.displayName, 'displayName').trim();
    const name = this.groupNames().find((candidate) => candidate.toLowerCase() === displayName.toLowerCase());
    if (!name) throw badRequest('invalidValue', `There is no gateway group "${displayName}": an administrator creates groups (with their price ratio) in the GroupRatio setting first`);
    for (const id of memberIds(resource.members)) await this.addMember(context, name, id);
    return toScimGroup(name, await this.repository.membersOf(name), context.baseUrl);
  }

  /** PUT: the name cannot change; `members`, when present, becomes the whole membership. */
  async replace(context: ScimContext, id: string, body: unknown): Promise<ScimGroupResource> {
    const name = this.resolve(id);
    const resource = asGroupResource(body);
    if (resource.displayName !== undefined) checkSameName(name, resource.displayName);
    if (resource.members !== undefined) await this.replaceMembers(context, name, memberIds(resource.members));
    return toScimGroup(name, await this.repository.membersOf(name), context.baseUrl);
  }

  async patch(context: ScimContext, id: string, body: unknown): Promise<ScimGroupResource> {
    const operations = parsePatchRequest(body);
    const name = this.resolve(id);
    for (const operation of operations) await this.applyOperation(context, name, operation);
    return toScimGroup(name, await this.repository.membersOf(name), context.baseUrl);
  }

  /** DELETE: the members go back to "default"; the group itself (a price setting) stays. */
  async remove(context: ScimContext, id: string): Promise<void> {
    const name = this.resolve(id);
    await this.replaceMembers(context, name, []);
  }

  private async applyOperation(context: ScimContext, name: string, { op, path, value }: ScimPatchOperation): Promise<void> {
    if (path.attribute === 'displayname') {
      if (op === 'remove') throw new ScimError(400, 'A group keeps its name', 'mutability');
      checkSameName(name, value);
      return;
    }
    if (path.attribute !== 'members') return;
    if (op === 'add') {
      for (const id of memberIds(value)) await this.addMember(context, name, id);
    } else if (op === 'replace') {
      await this.replaceMembers(context, name, memberIds(value));
    } else if (path.filter) {
      // Okta: {"op":"remove","path":"members[value eq \"7\"]"}.
      if (path.filter.path !== 'value' || typeof path.filter.value !== 'string') throw badRequest('invalidPath', 'Members are removed by value: members[value eq "<user id>"]');
      await this.removeMember(context, name, path.filter.value);
    } else if (value !== undefined) {
      // Entra: {"op":"Remove","path":"members","value":[{"value":"7"}]}.
      for (const id of memberIds(value)) await this.removeMember(context, name, id);
    } else {
      await this.replaceMembers(context, name, []);
    }
  }

  private async replaceMembers(context: ScimContext, name: string, ids: string[]): Promise<void> {
    const wanted = new Set(ids);
    for (const member of await this.repository.membersOf(name)) if (!wanted.has(String(member.id))) await this.removeMember(context, name, String(member.id));
    for (const id of wanted) await this.addMember(context, name, id);
  }

  private async addMember(context: ScimContext, name: string, id: string): Promise<void> {
    const user = await this.scimUsers.find(id).catch((error: unknown) => {
      throw error instanceof ScimError && error.status === 404 ? badRequest('invalidValue', `No User with id ${id}`) : error;
    });
    if (user.group !== name) await this.moveUser(context, this.scimUsers.managed(user).id, user.group, name);
  }

  private async removeMember(context: ScimContext, name: string, id: string): Promise<void> {
    // A member already gone (deleted) has nothing left to remove.
    const user = await this.scimUsers.find(id).catch(() => null);
    if (!user || user.group !== name || name === DEFAULT_GROUP) return;
    await this.moveUser(context, this.scimUsers.managed(user).id, name, DEFAULT_GROUP);
  }

  private async moveUser(context: ScimContext, userId: number, from: string, to: string): Promise<void> {
    await this.users.updateColumns(userId, { group: to });
    await this.audit.record(auditActor(context.caller), { entity: 'user', entityId: userId, action: 'update', changes: { group: { from, to } } });
  }

  private groupNames(): string[] {
    return Object.keys(this.options.get('GroupRatio'));
  }

  /** A group by id (its name, exactly); 404 when the gateway has no such group. */
  private resolve(id: string): string {
    if (!Object.hasOwn(this.options.get('GroupRatio'), id)) throw notFound(`No Group with id ${id}`);
    return id;
  }
}

function asGroupResource(body: unknown): { displayName?: unknown; members?: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalidSyntax', 'The request body must be a JSON object');
  return body as { displayName?: unknown; members?: unknown };
}

function checkSameName(name: string, displayName: unknown): void {
  if (scimString(displayName, 'displayName').trim().toLowerCase() !== name.toLowerCase()) {
    throw new ScimError(400, `A gateway group cannot be renamed here ("${name}" is a key of the GroupRatio setting)`, 'mutability');
  }
}

/** `excludedAttributes=members` (Entra) leaves the member list out. */
function membersWanted(query: ScimListQuery): boolean {
  return !(query.excludedAttributes ?? '')
    .split(',')
    .some((attribute) => attribute.trim().toLowerCase() === 'members');
}
