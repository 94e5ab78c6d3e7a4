import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isBelievableUsage, preConsumeQuotaFor, PriceSheet, settleQuota, type BilledUsage } from '../billing/billing-formula';
import { InsufficientQuotaError, QuotaHold, QuotaLedgerService } from '../billing/quota-ledger.service';
import { SettlementBatcherService } from '../billing/settlement-batcher.service';
import { LOG_TYPE_CONSUME } from '../logs/entities/log.entity';
import { OptionsService } from '../options/options.service';
import { PricingService } from '../pricing/pricing.service';
import { ChannelCacheService } from './caches/channel-cache.service';
import { pickKey, type RelayChannel } from './caches/relay-channel';
import { TokenCacheService } from './caches/token-cache.service';
import { UserCacheService } from './caches/user-cache.service';
import { ChannelMonitorService } from './channel-monitor.service';
import { pickChannel } from './channel-selector';
import { PlaygroundAuthService } from './playground-auth.service';
import { adaptorForChannelType } from './providers/provider-registry';
import type { JsonObject, ProviderAdaptor, UpstreamTarget, Usage } from './providers/adaptor';
import { canReadRawUsage, canTranslateResponse } from './providers/adaptor';
import { PLAYGROUND_TOKEN_NAME, type RelayCaller } from './relay-caller';
import { endpointForPath, type EndpointSpec } from './relay-endpoints';
import { RelayError, sendRelayError } from './relay-error';
import { multipartField, readRequestBody } from './request-body';
import { attemptsAllowed } from './retry-policy';
import { relayEventStream } from './sse-passthrough';
import { checkModelAllowed, TokenAuthService } from './token-auth.service';
import { countPromptTokens, countTextTokens, estimatePromptTokens } from './token-counter';
import { mappedStatus, upstreamFailure } from './upstream-error';
import { transportError, UpstreamAbort, UpstreamClientService } from './upstream-client.service';

/** Everything one client request carries through its attempts. */
interface RelayRequest {
  caller: RelayCaller;
  spec: EndpointSpec;
  model: string;
  /** The client's JSON body, parsed once (undefined for multipart uploads). */
  body?: JsonObject;
  rawBody: Buffer;
  contentType: string;
  stream: boolean;
  sheet: PriceSheet;
  userGroupRatio: number | null;
  /** A quick estimate for the quota hold; never billed. */
  promptEstimate: number;
  startedAt: number;
  /** Channel ids tried, in order. */
  tried: number[];
  abort: UpstreamAbort;
  clientGone: () => boolean;
}

/** A successful attempt: what was delivered and how to bill it. */
interface Delivery {
  channel: RelayChannel;
  upstreamModel: string;
  usage?: Usage;
  text: () => string;
  firstByteAt?: number;
}

/** Once a stream has sent its first byte the attempt counts as delivered, so it is never retried. */
type AttemptResult = { ok: true; delivery: Delivery } | { ok: false; error: RelayError };

const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The relay: authenticate, price, hold quota, pick a channel, call it (failing over to others
 * on channel faults), pass the answer through, then settle. Runs straight off Node's server,
 * reading only in-memory caches; the only database work on the path is the quota hold.
 */
@Injectable()
export class RelayService {
  private readonly logger = new Logger(RelayService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenAuth: TokenAuthService,
    private readonly playgroundAuth: PlaygroundAuthService,
    private readonly tokens: TokenCacheService,
    private readonly users: UserCacheService,
    private readonly channels: ChannelCacheService,
    private readonly options: OptionsService,
    private readonly pricing: PricingService,
    private readonly ledger: QuotaLedgerService,
    private readonly settlements: SettlementBatcherService,
    private readonly monitor: ChannelMonitorService,
    private readonly upstream: UpstreamClientService,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = request.url ?? '/';
      const query = url.indexOf('?');
      const path = (query < 0 ? url : url.slice(0, query)).replace(/\/+$/, '');
      if (path === '/v1/models' && request.method === 'GET') return await this.listModels(request, response);
      const playground = path === '/pg/chat/completions';
      const spec = playground ? endpointForPath('/v1/chat/completions') : endpointForPath(path);
      if (!spec) throw new RelayError('not_found', `Unknown endpoint ${request.method} ${path}`, 404);
      if (request.method !== 'POST') throw new RelayError('not_found', `Use POST for ${path}`, 405);
      await this.relay(request, response, spec, playground);
    } catch (error) {
      sendRelayError(response, this.asRelayError(error));
    }
  }

  private async listModels(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const caller = await this.tokenAuth.authenticate(request);
    request.resume();
    const limits = caller.token?.modelLimits;
    const models = this.channels
      .modelsOfGroup(caller.group)
      .filter((model) => !limits || limits.has(model))
      .sort();
    const body = JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1626777600, owned_by: 'gateway' })) });
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  }

  private async relay(request: IncomingMessage, response: ServerResponse, spec: EndpointSpec, playground: boolean): Promise<void> {
    const startedAt = performance.now();
    const caller = playground ? await this.playgroundAuth.authenticate(request) : await this.tokenAuth.authenticate(request);
    const rawBody = await readRequestBody(request, this.config.relay.maxRequestBodyBytes);
    const contentType = String(request.headers['content-type'] ?? 'application/json');

    let body: JsonObject | undefined;
    let model: string | undefined;
    if (spec.body === 'json') {
      body = parseJsonBody(rawBody);
      model = typeof body.model === 'string' ? body.model : undefined;
    } else {
      model = multipartField(rawBody, 'model');
    }
    if (!model) throw new RelayError('invalid_request', 'The request names no model', 400);
    if (playground) caller.group = this.playgroundAuth.chooseGroup(caller, body?.group);
    checkModelAllowed(caller, model);

    const tiers = this.channels.tiers(caller.group, model);
    if (tiers.length === 0) throw new RelayError('no_available_channel', `No channel serves the model ${model} in group ${caller.group}`, 503);

    const { sheet, userGroupRatio } = this.priceSheet(caller, model);
    const stream = body?.stream === true;
    const promptEstimate = body ? estimatePromptTokens(spec.endpoint, body) : 0;
    const maxTokens = body ? numberField(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens) : 0;
    const holdAmount = preConsumeQuotaFor(sheet, promptEstimate, maxTokens, this.options.get('PreConsumedQuota'));
    const hold = await this.holdQuota(caller, holdAmount);

    const abort = new UpstreamAbort();
    let gone = false;
    response.on('close', () => {
      if (!response.writableFinished) {
        gone = true;
        abort.abort();
      }
    });
    const relayRequest: RelayRequest = {
      caller,
      spec,
      model,
      body,
      rawBody,
      contentType,
      stream,
      sheet,
      userGroupRatio,
      promptEstimate,
      startedAt,
      tried: [],
      abort,
      clientGone: () => gone,
    };

    let delivery: Delivery | undefined;
    try {
      delivery = await this.attemptWithFailover(relayRequest, tiers, response);
    } catch (error) {
      this.refund(caller, hold);
      throw error;
    }
    this.settle(relayRequest, hold, delivery);
  }

  /** Tries channels until one answers, RetryTimes more at most, never the same one twice. */
  private async attemptWithFailover(request: RelayRequest, tiers: ReturnType<ChannelCacheService['tiers']>, response: ServerResponse): Promise<Delivery> {
    const attempts = attemptsAllowed(this.options.get('RetryTimes'));
    let lastError: RelayError | undefined;
    let lastChannel: RelayChannel | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const channel = pickChannel(tiers, new Set(request.tried));
      if (!channel) break;
      request.tried.push(channel.id);
      const result = await this.attempt(request, channel, response);
      if (result.ok) return result.delivery;
      lastError = result.error;
      lastChannel = channel;
      if (result.error.skipRetry || request.clientGone()) break;
    }
    if (!lastError || !lastChannel) throw new RelayError('no_available_channel', `No channel serves the model ${request.model} in group ${request.caller.group}`, 503);
    lastError.status = mappedStatus(lastChannel, lastError.status);
    throw lastError;
  }

  private async attempt(request: RelayRequest, channel: RelayChannel, response: ServerResponse): Promise<AttemptResult> {
    const adaptor = adaptorForChannelType(channel.type);
    if (!adaptor) return failed(new RelayError('channel:bad_response', 'The channel type is not supported by this gateway', 502));
    const target: UpstreamTarget = {
      channel,
      key: pickKey(channel),
      endpoint: request.spec.endpoint,
      upstreamModel: channel.modelMapping[request.model] || request.model,
      stream: request.stream,
    };
    const url = adaptor.buildUrl(target);
    if (!url) return failed(new RelayError('channel:bad_response', `The channel does not offer ${request.spec.path}`, 502));

    const headers = adaptor.buildHeaders(target);
    headers['content-type'] = request.contentType;
    const outgoing = this.outgoingBytes(adaptor, target, request);

    let answer;
    try {
      answer = await this.upstream.send({
        url,
        method: 'POST',
        headers,
        body: outgoing,
        signal: request.abort,
        headersTimeoutMs: this.config.relay.timeoutMs,
        bodyTimeoutMs: request.stream ? this.config.relay.streamingTimeoutMs : this.config.relay.timeoutMs,
      });
    } catch (error) {
      if (request.clientGone()) return failed(clientGoneError());
      return failed(transportError(error));
    }
    const headersAt = performance.now();

    if (answer.statusCode >= 400) {
      const text = await readLimited(answer.body, ERROR_BODY_LIMIT).catch(() => '');
      const disable = this.monitor.shouldDisable(channel, answer.statusCode, text);
      if (disable) {
        this.monitor.disableChannel(channel, `status ${answer.statusCode}: ${text.slice(0, 300)}`).catch((error: Error) => this.logger.error(`disabling channel ${channel.id} failed: ${error.message}`));
      }
      return failed(upstreamFailure(channel, answer.statusCode, text, disable));
    }

    const upstreamType = String(answer.headers['content-type'] ?? '');
    if (upstreamType.includes('text/event-stream')) {
      const outcome = await relayEventStream(answer.body, response, adaptor, request.clientGone);
      if (outcome.firstChunkAt === undefined) {
        if (request.clientGone()) return failed(clientGoneError());
        return failed(new RelayError('channel:bad_response', 'The upstream stream ended before sending anything', 502));
      }
      return { ok: true, delivery: { channel, upstreamModel: target.upstreamModel, usage: outcome.usage, text: outcome.deliveredText, firstByteAt: outcome.firstChunkAt } };
    }

    let bytes: Buffer;
    try {
      bytes = Buffer.from(await answer.body.arrayBuffer());
    } catch (error) {
      if (request.clientGone()) return failed(clientGoneError());
      return failed(transportError(error));
    }
    let reading: { usage?: Usage; text: () => string } = { text: () => '' };
    if (upstreamType.includes('json')) {
      const answer = readJsonAnswer(adaptor, target, bytes);
      if (!answer) return failed(new RelayError('channel:bad_response', 'The upstream answered with invalid JSON', 502));
      reading = answer;
      bytes = answer.bytes;
    } else if (upstreamType.startsWith('text/')) {
      const text = bytes.toString('utf8');
      reading = { text: () => text };
    }
    if (request.clientGone()) return failed(clientGoneError());
    response.writeHead(answer.statusCode, { 'content-type': upstreamType || 'application/json', 'content-length': bytes.length });
    response.end(bytes);
    return { ok: true, delivery: { channel, upstreamModel: target.upstreamModel, usage: reading.usage, text: reading.text, firstByteAt: headersAt } };
  }

  /** The body to send: the client's own bytes when this channel changes nothing in them. */
  private outgoingBytes(adaptor: ProviderAdaptor, target: UpstreamTarget, request: RelayRequest): string | Buffer {
    if (!request.body) return request.rawBody;
    const body = this.outgoingBody(adaptor, target, request.body);
    return body === request.body ? request.rawBody : JSON.stringify(body);
  }

  /**
   * The client's body for this channel: a copy with the upstream model, the setting and
   * param_override, or the client's own object when none of them changes anything.
   */
  private outgoingBody(adaptor: ProviderAdaptor, target: UpstreamTarget, clientBody: JsonObject): JsonObject {
    // `group` picks the playground's group; it is ours, not the provider's.
    const dropsGroup = target.endpoint === 'chat' && 'group' in clientBody;
    const systemPrompt = systemPromptToAdd(target, clientBody);
    const overrides = Object.keys(target.channel.paramOverride).length > 0;
    if (!dropsGroup && systemPrompt === undefined && !overrides && clientBody.model === target.upstreamModel && adaptor.keepsClientBody(target, clientBody)) {
      return clientBody;
    }
    const body: JsonObject = { ...clientBody };
    if (dropsGroup) delete body.group;
    if (systemPrompt !== undefined) body.messages = [{ role: 'system', content: systemPrompt }, ...(body.messages as JsonObject[])];
    return Object.assign(adaptor.convertRequest(target, body), target.channel.paramOverride);
  }

  private priceSheet(caller: RelayCaller, model: string): { sheet: PriceSheet; userGroupRatio: number | null } {
    const price = this.pricing.modelPricing(model);
    if (!price.priced && !this.options.get('SelfUseModeEnabled') && !caller.user.acceptUnsetModelRatio) {
      throw new RelayError('model_price_not_set', `The model ${model} has no price set; ask the administrator to set its ratio or price`, 403);
    }
    const group = this.pricing.groupRatio(caller.user.group, caller.group);
    return {
      sheet: {
        quotaType: price.quota_type,
        modelRatio: price.model_ratio,
        completionRatio: price.completion_ratio,
        cacheRatio: price.cache_ratio,
        modelPrice: price.model_price,
        groupRatio: group.ratio,
        quotaPerUnit: this.pricing.quotaPerUnit(),
      },
      userGroupRatio: group.userGroupRatio,
    };
  }

  private async holdQuota(caller: RelayCaller, amount: number): Promise<QuotaHold> {
    const token = caller.token;
    const tokenLimited = token !== null && !token.unlimitedQuota;
    try {
      const hold = await this.ledger.preConsumeQuota(token?.id ?? 0, tokenLimited, caller.user.id, amount);
      if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, -hold.fromToken);
      if (hold.fromUser) this.users.adjustQuota(caller.user.id, -hold.fromUser);
      return hold;
    } catch (error) {
      if (error instanceof InsufficientQuotaError) {
        const whose = error.holder === 'token' ? 'This API key' : 'Your account';
        throw new RelayError('insufficient_quota', `${whose} does not have enough quota for this request (needs ${amount})`, 403);
      }
      throw error;
    }
  }

  /** Gives back exactly what the hold took. */
  private refund(caller: RelayCaller, hold: QuotaHold): void {
    if (hold.fromToken === 0 && hold.fromUser === 0) return;
    this.settlements.enqueue({ hold, tokenLimited: hold.fromToken > 0, quota: 0, channelId: 0, success: false });
    if (hold.fromToken) this.tokens.adjustRemainQuota(caller.tokenKey, hold.fromToken);
    if (hold.fromUser) this.users.adjustQuota(caller.user.id, hold.fromUser);
  }

  private settle(request: RelayRequest, hold: QuotaHold, delivery: Delivery): void {
    const { caller, sheet } = request;
    const usage = this.billedUsage(request, delivery);
    const quota = settleQuota(sheet, usage);
    const tokenLimited = caller.token !== null && !caller.token.unlimitedQuota;
    const isMapped = delivery.upstreamModel !== request.model;
    const now = performance.now();
    const log = this.options.get('LogConsumeEnabled')
      ? {
          user_id: caller.user.id,
          created_at: Math.floor(Date.now() / 1000),
          type: LOG_TYPE_CONSUME,
          content: describeCharge(sheet),
          username: caller.user.username,
          token_name: caller.token ? caller.token.name : PLAYGROUND_TOKEN_NAME,
          token_id: caller.token?.id ?? 0,
          model_name: request.model,
          quota,
          prompt_tokens: usage.promptTokens,
          completion_tokens: usage.completionTokens,
          use_time: Math.round((now - request.startedAt) / 1000),
          is_stream: request.stream,
          channel_id: delivery.channel.id,
          channel_name: delivery.channel.name,
          group: caller.group,
          ip: caller.ip,
          other: JSON.stringify({
            frt: delivery.firstByteAt === undefined ? -1 : Math.round(delivery.firstByteAt - request.startedAt),
            model_ratio: sheet.modelRatio,
            group_ratio: sheet.groupRatio,
            completion_ratio: sheet.completionRatio,
            cache_tokens: usage.cachedTokens,
            cache_ratio: sheet.cacheRatio,
            model_price: sheet.quotaType === 1 ? sheet.modelPrice : -1,
            user_group_ratio: request.userGroupRatio ?? -1,
            is_model_mapped: isMapped,
            ...(isMapped ? { upstream_model_name: delivery.upstreamModel } : {}),
            request_path: request.spec.path,
            client_disconnected: request.clientGone() || undefined,
            admin_info: { use_channel: request.tried },
          }),
        }
      : undefined;
    this.settlements.enqueue({ hold, tokenLimited, quota, channelId: delivery.channel.id, log, success: true });
    if (tokenLimited) this.tokens.adjustRemainQuota(caller.tokenKey, hold.fromToken - quota);
    this.users.adjustQuota(caller.user.id, hold.fromUser - quota);
  }

  /** The upstream's usage when it is believable, else our own count of the prompt and of what was delivered. */
  private billedUsage(request: RelayRequest, delivery: Delivery): BilledUsage {
    const reported = delivery.usage;
    if (reported && isBelievableUsage(reported)) {
      return { promptTokens: reported.promptTokens, completionTokens: reported.completionTokens, cachedTokens: Math.min(reported.cachedTokens, reported.promptTokens) };
    }
    const promptTokens = request.body ? countPromptTokens(request.spec.endpoint, request.model, request.body) : 0;
    return { promptTokens, completionTokens: countTextTokens(request.model, delivery.text()), cachedTokens: 0 };
  }

  private asRelayError(error: unknown): RelayError {
    if (error instanceof RelayError) return error;
    this.logger.error('relay request failed', error instanceof Error ? error.stack : String(error));
    return new RelayError('internal_error', 'The gateway failed to handle the request', 500);
  }
}

function failed(error: RelayError): AttemptResult {
  return { ok: false, error };
}

function clientGoneError(): RelayError {
  return new RelayError('invalid_request', 'The client closed the connection', 499);
}

function parseJsonBody(raw: Buffer): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new RelayError('invalid_request', 'The request body is not valid JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RelayError('invalid_request', 'The request body must be a JSON object', 400);
  return parsed as JsonObject;
}

/** The channel's system prompt, for a chat that brings no system message of its own. */
function systemPromptToAdd(target: UpstreamTarget, body: JsonObject): string | undefined {
  const systemPrompt = target.channel.setting.system_prompt;
  if (target.endpoint !== 'chat' || !systemPrompt || !Array.isArray(body.messages)) return undefined;
  return (body.messages as JsonObject[]).some((message) => message?.role === 'system') ? undefined : systemPrompt;
}

/**
 * A complete JSON answer: its usage, its text (read only when usage does not add up) and the
 * bytes for the client; undefined when it is not JSON. An answer passed through as it is is
 * parsed whole only if its usage cannot be read straight from the bytes.
 */
function readJsonAnswer(adaptor: ProviderAdaptor, target: UpstreamTarget, bytes: Buffer): { usage?: Usage; text: () => string; bytes: Buffer } | undefined {
  if (!canTranslateResponse(adaptor) && canReadRawUsage(adaptor)) {
    const usage = adaptor.readUsageFromBytes(bytes);
    if (usage && isBelievableUsage(usage)) return { usage, text: () => adaptor.parseResponse(parseJson(bytes)).text, bytes };
  }
  const parsed = parseJson(bytes);
  if (parsed === undefined) return undefined;
  const reading = adaptor.parseResponse(parsed);
  const clientBytes = canTranslateResponse(adaptor) ? Buffer.from(JSON.stringify(adaptor.translateResponse(parsed, target))) : bytes;
  return { usage: reading.usage, text: () => reading.text, bytes: clientBytes };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function numberField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, limit);
}

function describeCharge(sheet: PriceSheet): string {
  if (sheet.quotaType === 1) return `model price ${sheet.modelPrice}, group ratio ${sheet.groupRatio}`;
  return `model ratio ${sheet.modelRatio}, completion ratio ${sheet.completionRatio}, group ratio ${sheet.groupRatio}`;
}
