import { INestApplication, Inject, Injectable, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { IS_PUBLIC, MIN_ROLE } from '../../common/auth/auth.decorators';
import { applyApiDocs } from '../../common/http/query-docs';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SESSION_COOKIE } from '../sessions/sessions.service';
import { describeDtoFromValidators } from './dto-schemas';
import { RELAY_PATHS } from './relay-paths';
import RESPONSE_SCHEMAS from './response-schemas.json';

/** An operation, with room for our `x-` extension. */
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']> & { 'x-min-role'?: number };

/** A route handler as Nest declared it, keyed like the document's operation ids. */
interface DeclaredHandler {
  /** The handler writes its own answer (redirect, stream, provider callback): no envelope. */
  ownsResponse: boolean;
  /** Public, or the lowest role allowed (0: any signed-in user). */
  minRole: number | 'public';
  /** `@Query('name')` parameters: the scanner drops those typed `string | undefined` (emitted as Object). */
  namedQueries: string[];
}

const ENVELOPE_SCHEMA = 'Envelope';
const SIGNED_IN: Record<string, string[]>[] = [{ session: [], newApiUser: [] }, { accessToken: [], newApiUser: [] }];

type Schema = Record<string, unknown>;
/** What each handler answers as `data`, read from its declared return type by scripts/openapi-response-schemas.js. */
const ANSWERS = RESPONSE_SCHEMAS.operations as Record<string, Schema>;

type RouteArguments = Record<string, { data?: unknown }>;

/** Nest's `@Res()` without passthrough: the handler answers by itself. */
function ownsResponse(args: RouteArguments): boolean {
  return Object.entries(args).some(([key, arg]) => key.startsWith(`${RouteParamtypes.RESPONSE}:`) && !(arg.data as { passthrough?: boolean } | undefined)?.passthrough);
}

function namedQueries(args: RouteArguments): string[] {
  return Object.entries(args).flatMap(([key, arg]) => (key.startsWith(`${RouteParamtypes.QUERY}:`) && typeof arg.data === 'string' ? [arg.data] : []));
}

/**
 * Builds the OpenAPI document of every `/api` route from the controllers (paths, path and
 * query parameters, bodies) and their class-validator DTOs, wraps JSON answers in the
 * `{success, message, data}` envelope, marks who may call each route, and adds the relay's
 * static section. Built on first request, then kept: routes do not change while running.
 */
@Injectable()
export class OpenApiDocumentService {
  private app?: INestApplication;
  private built?: OpenAPIObject;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The running application, to scan; called once by the app factory after init. */
  attach(app: INestApplication): void {
    this.app = app;
  }

  document(): OpenAPIObject {
    if (!this.built) this.built = this.build();
    return this.built;
  }

  private build(): OpenAPIObject {
    if (!this.app) throw new Error('OpenApiDocumentService used before attach()');
    // @nestjs/swagger loads here, on the first request for the document (see ApiDoc).
    const swagger = require('@nestjs/swagger') as typeof import('@nestjs/swagger');
    const { DocumentBuilder, SwaggerModule } = swagger;
    applyApiDocs(swagger);
    const handlers = this.declaredHandlers();
    const builder = new DocumentBuilder()
      .setTitle('AI gateway API')
      .setVersion(this.config.version)
      .setDescription(
        'Management API of the console (`/api`, answers in the `{success, message, data}` envelope; signed-in calls send the session cookie or a system access token, and New-Api-User with their user id) and the main relay endpoints (`/v1`, in the providers’ own formats, with an API key).',
      )
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'New-Api-User' }, 'newApiUser')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A system access token (from the personal settings page)' }, 'accessToken')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (sk-…) for the relay' }, 'apiKey')
      .build();
    const document = SwaggerModule.createDocument(this.app, builder, { operationIdFactory: (controller, method) => `${controller}_${method}` });
    document.components = {
      ...document.components,
      schemas: {
        ...document.components?.schemas,
        ...(RESPONSE_SCHEMAS.components as Record<string, Schema>),
        [ENVELOPE_SCHEMA]: {
          type: 'object',
          required: ['success', 'message', 'data'],
          properties: { success: { type: 'boolean' }, message: { type: 'string', description: 'In the caller’s language (Accept-Language)' }, data: { nullable: true, description: 'The answer; null on failure' } },
        },
      },
    };
    for (const pathItem of Object.values(document.paths)) {
      for (const operation of Object.values(pathItem) as Operation[]) {
        const handler = handlers.get(operation.operationId ?? '');
        if (handler) this.describeOperation(operation, handler, ANSWERS[operation.operationId ?? '']);
      }
    }
    document.paths = { ...document.paths, ...RELAY_PATHS };
    return document;
  }

  /** The envelope around `data`, HTTP 200 (the envelope interceptor answers 200 to every call), and who may call. */
  private describeOperation(operation: Operation, handler: DeclaredHandler, data: Schema | undefined): void {
    const parameters = (operation.parameters ??= []);
    for (const name of handler.namedQueries) {
      if (!parameters.some((parameter) => 'name' in parameter && parameter.name === name && parameter.in === 'query')) {
        parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
      }
    }
    delete operation.responses['201'];
    operation.responses['200'] = handler.ownsResponse
      ? { description: 'Written by the handler itself (a redirect, a stream, or the provider’s expected answer)' }
      : {
          description: '`success` false with a message for business failures (HTTP 200)',
          content: {
            'application/json': {
              schema: data ? { allOf: [{ $ref: `#/components/schemas/${ENVELOPE_SCHEMA}` }, { type: 'object', properties: { data } }] } : { $ref: `#/components/schemas/${ENVELOPE_SCHEMA}` },
            },
          },
        };
    if (handler.minRole === 'public') {
      operation.security = [];
      return;
    }
    operation.security = SIGNED_IN;
    operation.responses['401'] = { description: 'Not signed in, or New-Api-User missing or not the caller' };
    if (handler.minRole > 0) {
      operation.responses['403'] = { description: handler.minRole >= 100 ? 'Root only' : 'Administrators only' };
      operation['x-min-role'] = handler.minRole;
    }
  }

  /** Every controller method with a route, its DTOs described from their validators on the way. */
  private declaredHandlers(): Map<string, DeclaredHandler> {
    const scanner = new MetadataScanner();
    const handlers = new Map<string, DeclaredHandler>();
    for (const module of this.modules.values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as Type<unknown> | null;
        if (!controller) continue;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const method of scanner.getAllMethodNames(prototype)) {
          const handler = prototype[method] as object;
          if (Reflect.getMetadata(PATH_METADATA, handler) === undefined || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          const parameterTypes = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as unknown[];
          for (const parameterType of parameterTypes) {
            if (typeof parameterType === 'function' && getMetadataStorage().getTargetValidationMetadatas(parameterType, '', true, false).length > 0) {
              describeDtoFromValidators(parameterType as Type<unknown>);
            }
          }
          const isPublic = (Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller)) === true;
          const minRole = (Reflect.getMetadata(MIN_ROLE, handler) ?? Reflect.getMetadata(MIN_ROLE, controller) ?? 0) as number;
          const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as RouteArguments;
          handlers.set(`${controller.name}_${method}`, { ownsResponse: ownsResponse(args), minRole: isPublic ? 'public' : minRole, namedQueries: namedQueries(args) });
        }
      }
    }
    return handlers;
  }
}
