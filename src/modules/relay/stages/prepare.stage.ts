import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { preConsumeQuotaFor, type PriceSheet } from '../../billing/billing-formula';
import { OptionsService } from '../../options/options.service';
import { PricingService } from '../../pricing/pricing.service';
import { ChannelCacheService } from '../caches/channel-cache.service';
import type { JsonObject } from '../providers/adaptor';
import { PlaygroundAuthService } from '../playground-auth.service';
import type { RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';
import { multipartField, readRequestBody } from '../request-body';
import { checkModelAllowed, TokenAuthService } from '../token-auth.service';
import { estimatePromptTokens } from '../token-counter';
import { UpstreamAbort } from '../upstream-client.service';
import { RelayBillingService } from './billing-hold';
import type { PreparedRequest, RelayRoute } from './relay-request';

/**
 * The first stage: who calls (auth), what they ask for (body, model), whether any channel
 * serves it, what it costs (price sheet) and the quota held for it. Everything here reads
 * in-memory caches; the hold is the one database call.
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
  ) {}

  async prepare(request: IncomingMessage, response: ServerResponse, route: RelayRoute, requestId: string, startedAt: number): Promise<PreparedRequest> {
    const caller = route.playground ? await this.playgroundAuth.authenticate(request) : await this.tokenAuth.authenticate(request);
    const rawBody = await readRequestBody(request, this.config.relay.maxRequestBodyBytes);
    const contentType = String(request.headers['content-type'] ?? 'application/json');

    let body: JsonObject | undefined;
    let model: string | undefined;
    if (route.spec.body === 'json') {
      body = parseJsonBody(rawBody);
      model = route.pathModel ?? (typeof body.model === 'string' ? body.model : undefined);
    } else {
      model = multipartField(rawBody, 'model');
    }
    if (!model) throw new RelayError('invalid_request', 'The request names no model', 400);
    if (route.playground) caller.group = this.playgroundAuth.chooseGroup(caller, body?.group);
    checkModelAllowed(caller, model);

    const tiers = this.channels.tiers(caller.group, model);
    if (tiers.length === 0) throw this.unservedModel(model, caller.group);

    const { sheet, userGroupRatio } = this.priceSheet(caller, model);
    const promptEstimate = body ? estimatePromptTokens(route.spec.endpoint, body) : 0;
    const maxTokens = body ? numberField(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens) : 0;
    const holdAmount = preConsumeQuotaFor(sheet, promptEstimate, maxTokens, this.options.get('PreConsumedQuota'));
    const billing = await this.billing.hold(caller, holdAmount);

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
      headers: request.headers,
      stream: route.stream ?? body?.stream === true,
      sheet,
      userGroupRatio,
      tiers,
      billing,
      startedAt,
      tried: [],
      abort,
      clientGone: () => gone,
    };
  }

  /**
   * 404 model_not_found when no channel lists the model at all, as OpenAI answers (clients do
   * not retry it); 503 when channels list it but none is enabled for this group now.
   */
  private unservedModel(model: string, group: string): RelayError {
    if (!this.channels.allChannels().some((channel) => channel.models.includes(model))) {
      return new RelayError('model_not_found', `The model ${model} does not exist or no channel serves it`, 404);
    }
    return new RelayError('no_available_channel', `No channel is available for the model ${model} in group ${group} now`, 503);
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
        cacheWriteRatio: price.create_cache_ratio,
        modelPrice: price.model_price,
        groupRatio: group.ratio,
        quotaPerUnit: this.pricing.quotaPerUnit(),
      },
      userGroupRatio: group.userGroupRatio,
    };
  }
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

function numberField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
