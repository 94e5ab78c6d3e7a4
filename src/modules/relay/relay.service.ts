import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withRequestId } from '../../common/logging/request-context';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { describeDatabaseError, isDatabaseUnavailable } from '../../database/database-unavailable';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { GatewayTracing } from '../tracing/gateway-tracing';
import type { RequestTrace } from '../tracing/relay-trace';
import { AUTO_GROUP, AutoGroupRouter } from './auto-group';
import { BillingDashboardService } from './billing-dashboard.service';
import { ChannelCacheService } from './caches/channel-cache.service';
import { ClaudeTokenCountService } from './claude-token-count.service';
import { OPENAI_FORMAT } from './formats/openai.format';
import { CLAUDE_FORMAT } from './formats/claude.format';
import { GEMINI_FORMAT } from './formats/gemini.format';
import { RESPONSES_FORMAT } from './formats/responses.format';
import type { WireFormat } from './wire/wire-format';
import { CLAUDE_MESSAGES_SPEC, endpointForPath, OPENAI_PATHS, type EndpointSpec } from './relay-endpoints';
import { decodePathSegment, RelayError, REQUEST_ID_HEADER, sendRelayError } from './relay-error';
import { RelayDispatchStage } from './stages/dispatch.stage';
import { RelayPrepareStage } from './stages/prepare.stage';
import { ResponseCacheService } from './response-cache/response-cache.service';
import type { ClientResponse } from './wire/client-stream-writers';
import type { Delivery, PreparedRequest, RelayRoute } from './stages/relay-request';
import { RelaySettleStage } from './stages/settle.stage';
import { TokenAuthService } from './token-auth.service';

/** Answers a socket's call: through an upstream socket, or the HTTP dispatch when the channel has none. */
export type SocketDispatch = (prepared: PreparedRequest, sink: ClientResponse) => Promise<Delivery>;

/**
 * The relay, as its stages: prepare (auth, price, hold), dispatch (channel choice, attempts,
 * failover; each success goes through deliver: pass-through or translate), then settle. A
 * failure before delivery gives the hold back. Runs straight off Node's server, reading only
 * in-memory caches; the only database work on the path is the quota hold.
 */
@Injectable()
export class RelayService {
  private readonly logger = new Logger(RelayService.name);
  /** LOG_LEVEL=debug: one line per relay request (never its body, key or token). */
  private readonly accessLog: boolean;

  constructor(
    private readonly prepareStage: RelayPrepareStage,
    private readonly dispatchStage: RelayDispatchStage,
    private readonly settleStage: RelaySettleStage,
    private readonly tokenAuth: TokenAuthService,
    private readonly channels: ChannelCacheService,
    private readonly billing: BillingDashboardService,
    private readonly autoGroups: AutoGroupRouter,
    private readonly claudeTokenCount: ClaudeTokenCountService,
    private readonly metrics: GatewayMetrics,
    private readonly tracing: GatewayTracing,
    private readonly responseCache: ResponseCacheService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.accessLog = config.logging.level === 'debug' || config.logging.level === 'verbose';
  }

  handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    // Every answer carries it, passed to writeHead: an early setHeader would send every writeHead down Node's slow path.
    const requestId = randomUUID();
    return withRequestId(requestId, () => this.serve(request, response, requestId, startedAt));
  }

  private async serve(request: IncomingMessage, response: ServerResponse, requestId: string, startedAt: number): Promise<void> {
    let route: RelayRoute | undefined;
    // Errors answer in the client's format: known from the path's route, or Claude's for its token count.
    let errorFormat: WireFormat | undefined;
    try {
      const url = request.url ?? '/';
      const query = url.indexOf('?');
      const path = (query < 0 ? url : url.slice(0, query)).replace(/\/+$/, '');
      // Nearly every call: a relay path, POSTed. None of the other paths below takes a POST to a relay path.
      const relayRoute = routeFor(path, query < 0 ? '' : url.slice(query + 1));
      if (relayRoute && request.method === 'POST') {
        route = relayRoute;
        return await this.relay(request, response, relayRoute, requestId, startedAt);
      }
      if (request.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) return await this.listModels(request, response, path.slice('/v1/models/'.length), requestId);
      const billing = BILLING_PATHS.exec(path);
      if (billing && request.method === 'GET') return await this.billingDashboard(request, response, billing[1] as 'subscription' | 'usage', requestId);
      if (UNIMPLEMENTED_PATHS.test(path)) throw new RelayError('not_implemented', `The gateway does not offer ${path}: files and fine-tuning stay with the provider`, 501);
      if (path === CLAUDE_COUNT_TOKENS_PATH) {
        errorFormat = 'claude';
        if (request.method !== 'POST') throw new RelayError('not_found', `Use POST for ${path}`, 405);
        return sendJson(response, await this.claudeTokenCount.count(request), requestId);
      }
      route = relayRoute;
      // Google's clients read errors in Google's shape, also on its API's paths the gateway does not serve (countTokens, the model list).
      if (path.startsWith('/v1beta/')) errorFormat = 'gemini';
      if (!route) throw new RelayError('not_found', `Unknown endpoint ${request.method} ${path}`, 404);
      throw new RelayError('not_found', `Use POST for ${path}`, 405);
    } catch (error) {
      sendRelayError(response, this.asRelayError(error, requestId), route?.inbound.wire ?? errorFormat, requestId);
    }
  }

  /**
   * One call of a WebSocket session (a `response.create`), through the same stages as an HTTP
   * request: `message` is its body, `dispatch` may answer it through an upstream socket before
   * the HTTP dispatch. Throws the RelayError the client gets.
   */
  relaySocketCall(upgrade: IncomingMessage, sink: ClientResponse, route: RelayRoute, message: Buffer, requestId: string, dispatch?: SocketDispatch): Promise<void> {
    return withRequestId(requestId, () => this.relay(upgrade, sink, route, requestId, performance.now(), message, dispatch));
  }

  private async relay(request: IncomingMessage, response: ClientResponse, route: RelayRoute, requestId: string, startedAt: number, message?: Buffer, dispatch?: SocketDispatch): Promise<void> {
    let prepared: PreparedRequest | undefined;
    // Tracing off: undefined, and nothing below does more than check it.
    const trace = this.tracing.tracer?.startRequest(request, route, requestId);
    // Only when something reports the model of a refused request: otherwise the hot path allocates nothing more.
    const noted = this.metrics.enabled || this.accessLog || trace ? {} : undefined;
    try {
      prepared = message ? await this.prepareStage.prepareMessage(request, message, response, route, requestId, startedAt, noted) : await this.prepareStage.prepare(request, response, route, requestId, startedAt, noted);
    } catch (error) {
      throw this.failed(route, noted, error, requestId, startedAt, trace);
    }
    if (trace) {
      prepared.trace = trace;
      trace.prepared(prepared.model, prepared.stream);
    }
    let delivery;
    try {
      // A call the response cache answers ends here, settled: no channel, no upstream.
      if (await this.responseCache.answer(prepared, response)) return;
      delivery = dispatch ? await dispatch(prepared, response) : await this.dispatchStage.dispatch(prepared, response);
    } catch (error) {
      prepared.billing.refund();
      prepared.rateLimit?.release();
      prepared.callerLimit?.release();
      throw this.failed(route, prepared, error, requestId, startedAt, trace);
    }
    // The span ends once the settle stage knows the usage.
    trace?.delivered(delivery);
    this.settleStage.settle(prepared, delivery);
    if (this.metrics.enabled) this.served(prepared, delivery);
    if (this.accessLog) this.logger.debug(`${route.spec.path} ${prepared.model}: 200 from channel ${delivery.channel.id} (tried ${prepared.tried.join(', ')}) in ${Math.round(performance.now() - startedAt)} ms`);
  }

  private served(prepared: PreparedRequest, delivery: Delivery): void {
    const inbound = prepared.route.inbound.wire;
    this.metrics.requestFinished(inbound, prepared.model, delivery.channel.id, 200, prepared.startedAt);
    if (prepared.stream && delivery.firstByteAt !== undefined) this.metrics.firstToken(inbound, prepared.model, (delivery.firstByteAt - prepared.startedAt) / 1000);
  }

  /** The failure as the client will get it, counted (the model and the last channel tried, when known). */
  private failed(route: RelayRoute, prepared: Partial<Pick<PreparedRequest, 'model' | 'tried'>> | undefined, error: unknown, requestId: string, startedAt: number, trace: RequestTrace | undefined): RelayError {
    const relayError = this.asRelayError(error, requestId);
    trace?.failed(relayError, prepared?.model);
    if (this.metrics.enabled) this.metrics.requestFinished(route.inbound.wire, prepared?.model, prepared?.tried?.at(-1) ?? 0, relayError.status, startedAt);
    if (this.accessLog) {
      const tried = prepared?.tried?.length ? ` (tried ${prepared.tried.join(', ')})` : '';
      this.logger.debug(`${route.spec.path} ${prepared?.model ?? '-'}: ${relayError.status} ${relayError.code}${tried} in ${Math.round(performance.now() - startedAt)} ms`);
    }
    return relayError;
  }

  /** GET /v1/models, or one of them (`models.retrieve`): the models the token may use in its group. */
  private async listModels(request: IncomingMessage, response: ServerResponse, oneModel: string, requestId: string): Promise<void> {
    const caller = await this.tokenAuth.authenticate(request);
    request.resume();
    const limits = caller.token?.modelLimits;
    const groups = caller.group === AUTO_GROUP ? this.autoGroups.groupsFor(caller.user.group) : [caller.group];
    const models = [...new Set(groups.flatMap((group) => this.channels.modelsOfGroup(group)))]
      .filter((model) => !limits || limits.has(model))
      .sort();
    const entry = (id: string) => ({ id, object: 'model', created: 1626777600, owned_by: 'gateway' });
    if (!oneModel) return sendJson(response, { object: 'list', data: models.map(entry) }, requestId);
    const model = decodePathSegment(oneModel);
    if (!models.includes(model)) throw new RelayError('model_not_found', `The model ${model} does not exist or you do not have access to it`, 404);
    sendJson(response, entry(model), requestId);
  }

  private async billingDashboard(request: IncomingMessage, response: ServerResponse, kind: 'subscription' | 'usage', requestId: string): Promise<void> {
    const caller = await this.tokenAuth.authenticate(request);
    request.resume();
    sendJson(response, kind === 'subscription' ? await this.billing.subscription(caller) : await this.billing.usage(caller), requestId);
  }

  /** Any failure as the error the client gets: a database outage as 503, the unexpected as a logged 500. */
  asRelayError(error: unknown, requestId: string): RelayError {
    if (error instanceof RelayError) return error;
    if (isDatabaseUnavailable(error)) {
      this.logger.warn(`relay request ${requestId}: database unavailable (${describeDatabaseError(error)})`);
      return new RelayError('service_unavailable', 'The gateway cannot reach its database right now; please retry shortly', 503);
    }
    this.logger.error(`relay request ${requestId} failed`, error instanceof Error ? error.stack : String(error));
    return new RelayError('internal_error', 'The gateway failed to handle the request', 500);
  }
}

function sendJson(response: ServerResponse, value: object, requestId: string): void {
  const body = JSON.stringify(value);
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: requestId });
  response.end(body);
}

/** OpenAI APIs that hold state at the provider; a gateway in front of many providers cannot serve them. */
const BILLING_PATHS = /^(?:\/v1)?\/dashboard\/billing\/(subscription|usage)$/;
const CLAUDE_COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
const UNIMPLEMENTED_PATHS = /^\/v1\/(files|fine_tuning|fine-tunes|uploads)(\/|$)/;

/** Gemini's generate endpoints: the model and whether it streams are in the path. */
const GEMINI_PATH = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const GEMINI_SPEC: EndpointSpec = { endpoint: 'chat', path: '/models:generateContent', body: 'json' };

/** The routes of the paths that say nothing more than their endpoint, built once (shared: never modified). */
const FIXED_ROUTES: ReadonlyMap<string, RelayRoute> = new Map([
  ...[...OPENAI_PATHS].map(([path, spec]): [string, RelayRoute] => [path, { spec, inbound: spec.endpoint === 'responses' ? RESPONSES_FORMAT : OPENAI_FORMAT, playground: false }]),
  ['/pg/chat/completions', { spec: endpointForPath('/v1/chat/completions')!, inbound: OPENAI_FORMAT, playground: true }],
  ['/v1/messages', { spec: CLAUDE_MESSAGES_SPEC, inbound: CLAUDE_FORMAT, playground: false }],
]);

/** The endpoint and client format of a relay path: a fixed one looked up, a Gemini one read from the path. */
function routeFor(path: string, query: string): RelayRoute | undefined {
  const fixed = FIXED_ROUTES.get(path);
  if (fixed) return fixed;
  const gemini = GEMINI_PATH.exec(path);
  if (gemini) {
    const stream = gemini[2] === 'streamGenerateContent';
    // Without alt=sse Google streams one JSON array; clients that ask so get it.
    return { spec: GEMINI_SPEC, inbound: GEMINI_FORMAT, playground: false, pathModel: decodePathSegment(gemini[1]), stream, jsonArrayStream: stream && new URLSearchParams(query).get('alt') !== 'sse' };
  }
  return undefined;
}
