import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { mediaQuota, preConsumeQuotaFor, type MediaCharge, type PriceSheet } from '../../billing/billing-formula';
import { OptionsService } from '../../options/options.service';
import { PricingService } from '../../pricing/pricing.service';
import { AUTO_GROUP, AutoGroupRouter, type AutoGroupCandidate } from '../auto-group';
import { ChannelCacheService } from '../caches/channel-cache.service';
import { CallerRateLimiterService } from '../caller-rate-limit/caller-rate-limiter.service';
import { ModelRateLimiterService } from '../model-rate-limit/model-rate-limiter.service';
import type { JsonObject } from '../wire/wire-format';
import { PlaygroundAuthService } from '../playground-auth.service';
import type { RelayCaller } from '../relay-caller';
import { modelNotFound, RelayError } from '../relay-error';
import { multipartField, parseJsonBody, readRequestBody, refuseNonJsonBody } from '../request-body';
import { SensitiveWordsService } from '../sensitive-words/sensitive-words.service';
import { checkModelAllowed, TokenAuthService } from '../token-auth.service';
import { estimatePromptTokens } from '../token-counter';
import { UpstreamAbort } from '../upstream-client.service';
import { fallbackChain } from '../fallback/model-fallbacks';
import { mediaChargeFor } from '../media-charge';
import { BillingHold, RelayBillingService } from './billing-hold';
import type { ClientResponse } from '../wire/client-stream-writers';
import type { PreparedRequest, RelayRoute } from './relay-request';

/** Who calls and what they sent, read from the transport. */
interface ClientCall {
  caller: RelayCaller;
  rawBody: Buffer;
  contentType: string;
  headers: IncomingHttpHeaders;
}

/**
 * The first stage: who calls (auth), what they ask for (body, model, the sensitive-word
 * check), whether any channel serves it, what it costs (price sheet), the model request
 * limit and the quota held for it. Everything here reads in-memory caches; the hold is the
 * one database call (and the limit's Redis call, when the limit is on and Redis configured).
 */
@Injectable()
export class RelayPrepareStage {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenAuth: TokenAuthService,
    private readonly playgroundAuth: PlaygroundAuthService,
    private readonly channels: ChannelCacheService,
    private readonly options: OptionsService,
    private readonly pricing: PricingService,
    private readonly billing: RelayBillingService,
    private readonly sensitiveWords: SensitiveWordsService,
    private readonly rateLimiter: ModelRateLimiterService,
    private readonly autoGroups: AutoGroupRouter,
    private readonly callerLimiter: CallerRateLimiterService,
  ) {}

  /**
   * `noted`, when given (metrics or the debug access log on), gets the model as soon as it is
   * read: a request refused later in this stage (no channel, no price, no quota, the rate
   * limit) is counted and logged under it.
   */
  async prepare(request: IncomingMessage, response: ClientResponse, route: RelayRoute, requestId: string, startedAt: number, noted?: { model?: string }): Promise<PreparedRequest> {
    const caller = route.playground ? await this.playgroundAuth.authenticate(request) : await this.tokenAuth.authenticate(request);
    if (route.spec.body === 'json') refuseNonJsonBody(request);
    const rawBody = await readRequestBody(request, this.config.relay.maxRequestBodyBytes);
    const contentType = String(request.headers['content-type'] ?? 'application/json');
    return this.prepareCall({ caller, rawBody, contentType, headers: request.headers }, response, route, requestId, startedAt, noted);
  }

  /**
   * One message of a WebSocket session (a `response.create`, as a JSON body), authenticated by
   * the upgrade request's token per message, as each HTTP request is.
   */
  async prepareMessage(upgrade: IncomingMessage, rawBody: Buffer, response: ClientResponse, route: RelayRoute, requestId: string, startedAt: number, noted?: { model?: string }): Promise<PreparedRequest> {
    const caller = await this.tokenAuth.authenticate(upgrade);
    return this.prepareCall({ caller, rawBody, contentType: 'application/json', headers: upgrade.headers }, response, route, requestId, startedAt, noted);
  }

  /** The rest, once the caller and body are read. */
  private async prepareCall(call: ClientCall, response: ClientResponse, route: RelayRoute, requestId: string, startedAt: number, noted?: { model?: string }): Promise<PreparedRequest> {
    const { caller, rawBody, contentType } = call;
    let body: JsonObject | undefined;
    let model: string | undefined;
    if (route.spec.body === 'json') {
      body = parseJsonBody(rawBody);
      model = route.pathModel ?? (typeof body.model === 'string' ? body.model : undefined);
    } else {
      model = multipartField(rawBody, 'model');
    }
    if (!model) throw new RelayError('invalid_request', 'The request names no model', 400);
    if (noted) noted.model = model;
    if (route.playground) caller.group = this.playgroundAuth.chooseGroup(caller, body?.group);
    checkModelAllowed(caller, model);
    if (this.sensitiveWords.active && body) this.sensitiveWords.checkPrompt(route.spec.endpoint, body);

    const autoGroups = caller.group === AUTO_GROUP ? this.autoGroupRoute(caller, model) : undefined;
    const tiers = autoGroups ? autoGroups.flatMap((candidate) => candidate.tiers) : this.channels.tiers(caller.group, model);
    if (tiers.length === 0) {
      const unserved = this.unservedModel(model, caller.group);
      // A model whose channels are all down now goes on to its fallbacks, when it has any: dispatch finds no channel for it.
      if (unserved.code !== 'no_available_channel' || fallbackChain(caller, model, body, this.options.get('ModelFallbacks')).length === 0) throw unserved;
    }

    const media = this.mediaCharge(route, model, body, rawBody, contentType);
    const { sheet, userGroupRatio } = this.priceSheet(caller, caller.group, model, media !== undefined);
    const { promptEstimate, maxTokens } = requestSize(route, body);
    const holdAmount = this.holdAmount(sheet, media, promptEstimate, maxTokens);
    const rateLimit = this.rateLimiter.enabled ? await this.rateLimiter.admit(caller.user.id, caller.group) : undefined;
    let callerLimit;
    let billing: BillingHold;
    try {
      // TPM reserves the prompt estimate plus the output limit; settlement puts the billed tokens in its place.
      if (CallerRateLimiterService.applies(caller)) callerLimit = await this.callerLimiter.admit(caller, promptEstimate + maxTokens);
      billing = await this.billing.hold(caller, holdAmount, model);
    } catch (error) {
      rateLimit?.release();
      callerLimit?.cancel();
      throw error;
    }

    const abort = new UpstreamAbort();
    let gone = false;
    response.on('close', () => {
      if (!response.writableFinished) {
        gone = true;
        abort.abort();
      }
    });
    return {
      requestId,
      route,
      caller,
      model,
      body,
      rawBody,
      contentType,
      headers: call.headers,
      stream: route.stream ?? body?.stream === true,
      sheet,
      userGroupRatio,
      media,
      tiers,
      billing,
      rateLimit,
      callerLimit,
      autoGroups,
      startedAt,
      tried: [],
      abort,
      clientGone: () => gone,
    };
  }

  /**
   * Moves a prepared request on to a fallback model, as prepare made it for the model asked
   * for: its channels, its price and a hold sized at that price. The body names the new model.
   * The new hold is taken before the old one is given back, so the request is never unheld;
   * a refusal (the token may not use the model, no channel serves it now, it has no price, the
   * payer cannot cover its hold) throws and leaves the request as it was.
   */
  async retarget(request: PreparedRequest, model: string): Promise<void> {
    const { caller, route, body } = request;
    checkModelAllowed(caller, model);
    const autoGroups = request.autoGroups ? this.autoGroups.candidates(caller.user.group, model) : undefined;
    const group = autoGroups?.[0]?.group ?? caller.group;
    const tiers = autoGroups ? autoGroups.flatMap((candidate) => candidate.tiers) : this.channels.tiers(group, model);
    if (tiers.length === 0) throw this.unservedModel(model, group);
    const media = this.mediaCharge(route, model, body, request.rawBody, request.contentType);
    const { sheet, userGroupRatio } = this.priceSheet(caller, group, model, media !== undefined);
    const { promptEstimate, maxTokens } = requestSize(route, body);
    const billing = await this.billing.hold(caller, this.holdAmount(sheet, media, promptEstimate, maxTokens), model);
    request.billing.refund();
    caller.group = group;
    Object.assign(request, { model, tiers, autoGroups, sheet, userGroupRatio, media, billing });
    if (route.pathModel !== undefined) {
      request.route = { ...route, pathModel: model };
    } else if (body) {
      // The body as if the client had asked for the model (pass-through channels, request pass-through mode).
      request.body = { ...body, model };
      request.rawBody = Buffer.from(JSON.stringify(request.body));
    }
  }

  /**
   * For an `auto` token: the AutoGroups groups whose channels may serve, in turn; the caller
   * then runs in (and is priced at) the first of them.
   */
  private autoGroupRoute(caller: RelayCaller, model: string): AutoGroupCandidate[] {
    const candidates = this.autoGroups.candidates(caller.user.group, model);
    if (candidates.length > 0) caller.group = candidates[0].group;
    return candidates;
  }

  /**
   * 404 model_not_found when no channel lists the model at all, as OpenAI answers (clients do
   * not retry it), or only channels of a retired provider do; 503 when channels list it but
   * none is enabled for this group now.
   */
  private unservedModel(model: string, group: string): RelayError {
    if (!this.channels.listsModel(model)) return modelNotFound(model);
    const retired = this.channels.retiredProviderListing(model);
    if (retired) return new RelayError('model_not_found', `The model ${model} is listed only by ${retired} channels, whose provider shut its API down: no channel can serve it`, 404);
    return new RelayError('no_available_channel', `No channel is available for the model ${model} in group ${group} now`, 503);
  }

  /** The per-unit charge when the model has a media price for this endpoint (ImagePrices, AudioPrices). */
  private mediaCharge(route: RelayRoute, model: string, body: JsonObject | undefined, rawBody: Buffer, contentType: string): MediaCharge | undefined {
    const tables = { ImagePrices: this.options.get('ImagePrices'), AudioPrices: this.options.get('AudioPrices') };
    return mediaChargeFor({ endpoint: route.spec.endpoint, model, body, rawBody, contentType }, tables);
  }

  /** A media call holds exactly its price; any other the bound of its token cost. */
  private holdAmount(sheet: PriceSheet, media: MediaCharge | undefined, promptEstimate: number, maxTokens: number): number {
    if (media) return mediaQuota(media, sheet.groupRatio, sheet.quotaPerUnit);
    return preConsumeQuotaFor(sheet, promptEstimate, maxTokens, this.options.get('PreConsumedQuota'));
  }

  /** The model's prices for the caller served in `group`; `mediaPriced`: a media table prices the call, so no ratio is needed. */
  private priceSheet(caller: RelayCaller, group: string, model: string, mediaPriced: boolean): { sheet: PriceSheet; userGroupRatio: number | null } {
    const price = this.pricing.modelPricing(model);
    if (!price.priced && !mediaPriced && !this.options.get('SelfUseModeEnabled') && !caller.user.acceptUnsetModelRatio) {
      throw new RelayError('model_price_not_set', `The model ${model} has no price set; ask the administrator to set its ratio or price`, 403);
    }
    const ratio = this.pricing.groupRatio(caller.user.group, group);
    return {
      sheet: {
        quotaType: price.quota_type,
        modelRatio: price.model_ratio,
        completionRatio: price.completion_ratio,
        cacheRatio: price.cache_ratio,
        cacheWriteRatio: price.create_cache_ratio,
        modelPrice: price.model_price,
        groupRatio: ratio.ratio,
        quotaPerUnit: this.pricing.quotaPerUnit(),
      },
      userGroupRatio: ratio.userGroupRatio,
    };
  }
}

/** What the hold is sized by: the prompt's estimate and the output limit the body asks for. */
function requestSize(route: RelayRoute, body: JsonObject | undefined): { promptEstimate: number; maxTokens: number } {
  if (!body) return { promptEstimate: 0, maxTokens: 0 };
  return { promptEstimate: estimatePromptTokens(route.spec.endpoint, body), maxTokens: numberField(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens) };
}

function numberField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
