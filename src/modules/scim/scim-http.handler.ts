import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientIp, hopTrust, type HopTrust } from '../../common/http/client-ip';
import { hasNonJsonBody } from '../../common/http/json-content-type';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../common/http/json-depth';
import { AppError } from '../../common/errors/app-error';
import { translate } from '../../common/i18n/catalogue';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isDatabaseUnavailable } from '../../database/database-unavailable';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { OptionsService } from '../options/options.service';
import { readRequestBody } from '../relay/request-body';
import { RelayError } from '../relay/relay-error';
import { listResponse, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { badRequest, notFound, ScimError } from './scim-error';
import { ScimGroupsService } from './scim-groups.service';
import { groupLocation, userLocation, type ScimContext, type ScimListQuery } from './scim-resources';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsersService } from './scim-users.service';

export const SCIM_PREFIX = '/scim/v2';
const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** What a SCIM call answers: a status, a body (none for 204), and where a created resource lives. */
interface ScimAnswer {
  status: number;
  body?: unknown;
  location?: string;
}

const ok = (body: unknown): ScimAnswer => ({ status: 200, body });

/**
 * `/scim/v2` (RFC 7644) straight off Node's server, like the relay and the health probes:
 * SCIM has its own media type, its own error shape and its own bearer tokens, so none of the
 * console's envelope, session guard or SPA fallback apply. This handler authenticates, routes
 * and answers; the services do the work.
 */
@Injectable()
export class ScimHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = [SCIM_PREFIX];
  private readonly logger = new Logger('Scim');
  private readonly trustedHop: HopTrust;

  constructor(
    private readonly rawRoutes: RawRoutes,
    private readonly tokens: ScimTokensService,
    private readonly users: ScimUsersService,
    private readonly groups: ScimGroupsService,
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.trustedHop = hopTrust(config.trustProxy);
  }

  onModuleInit(): void {
    this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    this.serve(request)
      .catch((error: unknown) => this.failure(request, error))
      .then((answer) => send(response, answer))
      .catch(() => response.destroy());
  }

  private async serve(request: IncomingMessage): Promise<ScimAnswer> {
    const caller = await this.tokens.authenticate(bearerToken(request), clientIp(request, this.trustedHop));
    if (!caller) {
      request.resume();
      throw new ScimError(401, 'Send the SCIM token made on the settings page as Authorization: Bearer <token>');
    }
    const url = new URL(request.url ?? '/', 'http://scim');
    const segments = pathSegments(url.pathname.slice(SCIM_PREFIX.length));
    const query = Object.fromEntries(url.searchParams) as ScimListQuery;
    const context: ScimContext = { caller, baseUrl: this.baseUrl(request) };
    const method = request.method ?? 'GET';
    const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? await this.readJson(request) : (request.resume(), undefined);
    return this.route(method, segments, query, body, context);
  }

  private async route(method: string, [resource = '', id, ...rest]: string[], query: ScimListQuery, body: unknown, context: ScimContext): Promise<ScimAnswer> {
    if (rest.length > 0) throw notFound('No such SCIM endpoint');
    const { baseUrl } = context;
    switch (resource.toLowerCase()) {
      case 'serviceproviderconfig':
        allow(method, ['GET'], id === undefined);
        return ok(serviceProviderConfig(baseUrl));
      case 'resourcetypes':
        allow(method, ['GET']);
        return ok(pick(resourceTypes(baseUrl), id, 'ResourceType'));
      case 'schemas':
        allow(method, ['GET']);
        return ok(pick(schemas(baseUrl), id, 'Schema'));
      case 'users':
        if (id === undefined) {
          allow(method, ['GET', 'POST']);
          if (method === 'GET') return ok(await this.users.list(context, query));
          const created = await this.users.create(context, body);
          return { status: 201, body: created, location: userLocation(baseUrl, Number(created.id)) };
        }
        allow(method, ['GET', 'PUT', 'PATCH', 'DELETE']);
        if (method === 'GET') return ok(await this.users.get(context, id));
        if (method === 'PUT') return ok(await this.users.replace(context, id, body));
        if (method === 'PATCH') return ok(await this.users.patch(context, id, body));
        await this.users.remove(context, id);
        return { status: 204 };
      case 'groups':
        if (id === undefined) {
          allow(method, ['GET', 'POST']);
          if (method === 'GET') return ok(await this.groups.list(context, query));
          const created = await this.groups.create(context, body);
          return { status: 201, body: created, location: groupLocation(baseUrl, created.id) };
        }
        allow(method, ['GET', 'PUT', 'PATCH', 'DELETE']);
        if (method === 'GET') return ok(await this.groups.get(context, id, query));
        if (method === 'PUT') return ok(await this.groups.replace(context, id, body));
        if (method === 'PATCH') return ok(await this.groups.patch(context, id, body));
        await this.groups.remove(context, id);
        return { status: 204 };
      default:
        throw notFound('No such SCIM endpoint');
    }
  }

  private async readJson(request: IncomingMessage): Promise<unknown> {
    if (hasNonJsonBody(request)) {
      request.resume();
      throw new ScimError(415, 'Send the body as application/scim+json');
    }
    const raw = await readRequestBody(request, this.config.relay.maxRequestBodyBytes);
    if (jsonDepthExceeds(raw, MAX_JSON_DEPTH)) throw badRequest('invalidSyntax', `The body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      return JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      throw badRequest('invalidSyntax', 'The body is not valid JSON');
    }
  }

  /** `<ServerAddress>/scim/v2`; without ServerAddress, the address the caller used. */
  private baseUrl(request: IncomingMessage): string {
    const serverAddress = this.options.get('ServerAddress').replace(/\/+$/, '');
    return `${serverAddress || `http://${request.headers.host ?? 'localhost'}`}${SCIM_PREFIX}`;
  }

  private failure(request: IncomingMessage, error: unknown): ScimAnswer {
    if (error instanceof ScimError) return { status: error.status, body: error.body() };
    if (error instanceof RelayError) return this.failure(request, new ScimError(error.status, error.message));
    if (error instanceof AppError) return this.failure(request, badRequest('invalidValue', translate(error.code, 'en', error.params)));
    if (isDatabaseUnavailable(error)) return this.failure(request, new ScimError(503, 'The database is unavailable; try again later'));
    // The path names resources by id only; the token is in a header and never logged.
    this.logger.error(`${request.method} ${request.url?.split('?')[0]} failed`, error instanceof Error ? error.stack : String(error));
    return this.failure(request, new ScimError(500, 'Internal error'));
  }
}

function bearerToken(request: IncomingMessage): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1] : '';
}

function pathSegments(path: string): string[] {
  try {
    return path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    throw badRequest('invalidPath', 'The path is not correctly percent-encoded');
  }
}

/** 405 for a method the endpoint does not serve; 404 when `exists` says the path is not one. */
function allow(method: string, methods: readonly string[], exists = true): void {
  if (!exists) throw notFound('No such SCIM endpoint');
  if (!methods.includes(method)) throw new ScimError(405, `${method} is not served here (${methods.join(', ')} are)`);
}

/** A discovery list, or its one entry named by `id`. */
function pick<T extends { id: string }>(entries: T[], id: string | undefined, kind: string): unknown {
  if (id === undefined) return listResponse(entries, entries.length, 1);
  const entry = entries.find((candidate) => candidate.id === id);
  if (!entry) throw notFound(`No ${kind} ${id}`);
  return entry;
}

function send(response: ServerResponse, answer: ScimAnswer): void {
  const headers: Record<string, string | number> = { 'cache-control': 'no-store' };
  if (answer.status === 401) headers['www-authenticate'] = 'Bearer realm="SCIM"';
  if (answer.location) headers.location = answer.location;
  if (answer.body === undefined) {
    response.writeHead(answer.status, headers);
    response.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, { ...headers, 'content-type': SCIM_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
