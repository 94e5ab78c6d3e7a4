import { Injectable } from '@nestjs/common';
import { isBelievableUsage, mediaQuota, settleQuota, type BilledUsage, type MediaCharge, type PriceSheet } from '../../billing/billing-formula';
import { SettlementBatcherService } from '../../billing/settlement-batcher.service';
import { logContent, logText, logTextJsonMembers } from '../../logs/log-text';
import type { LogMessageKey } from '../../logs/log.wire';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { OptionsService } from '../../options/options.service';
import { servingCandidate } from '../auto-group';
import type { Usage } from '../wire/usage';
import { ResponseCacheService } from '../response-cache/response-cache.service';
import { TokenCounterService } from '../token-counter.service';
import { chargeDetailMembers, consumeLogRow, jsonNumber } from './consume-log';
import type { Delivery, PreparedRequest } from './relay-request';
import { QUOTA_TYPE_PER_CALL } from '../../pricing/pricing.wire';

/**
 * The last stage: what the delivered answer costs, charged through the request's billing
 * hold with its log row. The write itself happens off the request path, in batches.
 */
@Injectable()
export class RelaySettleStage {
  constructor(
    private readonly options: OptionsService,
    private readonly tokenCounter: TokenCounterService,
    private readonly settlements: SettlementBatcherService,
    private readonly metrics: GatewayMetrics,
    private readonly responseCache: ResponseCacheService,
  ) {}

  /**
   * The upstream's usage when it is believable (always preferred to our count); otherwise
   * our own count of the prompt and of what was delivered, made off the event loop. The
   * batcher waits for such counts before its last flush on shutdown.
   */
  settle(request: PreparedRequest, delivery: Delivery): void {
    const reported = reportedUsage(delivery);
    if (reported) return this.charge(request, delivery, reported);
    // A media call is billed per unit: its tokens are not counted.
    if (request.media) return this.charge(request, delivery, { promptTokens: 0, completionTokens: 0, cachedTokens: 0 });
    const charged = this.countedUsage(request, delivery).then((usage) => this.charge(request, delivery, usage));
    // A count that failed charges nothing (the batcher logs it); the request's span still ends.
    if (request.trace) charged.catch(() => request.trace?.finish());
    this.settlements.waitFor(charged);
  }

  private async countedUsage(request: PreparedRequest, delivery: Delivery): Promise<BilledUsage> {
    const [promptTokens, completionTokens] = await Promise.all([
      request.body ? this.tokenCounter.countPrompt(request.route.spec.endpoint, request.model, request.body) : 0,
      this.tokenCounter.countText(request.model, delivery.text()),
    ]);
    return { promptTokens, completionTokens, cachedTokens: 0 };
  }

  private charge(request: PreparedRequest, delivery: Delivery, usage: BilledUsage): void {
    const { caller } = request;
    // An `auto` token is billed at the group whose channel served, which failover may have moved past the first.
    const served = request.autoGroups && servingCandidate(request.autoGroups, delivery.channel);
    const sheet = served ? { ...request.sheet, groupRatio: served.groupRatio } : request.sheet;
    const group = served ? served.group : caller.group;
    const userGroupRatio = served ? served.userGroupRatio : request.userGroupRatio;
    const media = billedMedia(request.media, delivery);
    const quota = media ? mediaQuota(media, sheet.groupRatio, sheet.quotaPerUnit) : settleQuota(sheet, usage);
    const isMapped = delivery.upstreamModel !== request.model;
    const charge = this.options.get('LogConsumeEnabled') ? (media ? describeMediaCharge(media, sheet.groupRatio) : describeCharge(sheet)) : undefined;
    const log = charge
      ? consumeLogRow(request, {
          content: charge.content,
          quota,
          usage,
          channelId: delivery.channel.id,
          channelName: delivery.channel.name,
          group,
          other: chargeDetail(request, delivery, sheet, usage, userGroupRatio, isMapped, media, charge.otherMembers),
        })
      : undefined;
    request.billing.settle(quota, delivery.channel.id, log);
    request.callerLimit?.settle(usage.promptTokens + usage.completionTokens);
    if (request.responseCacheKey !== undefined) this.responseCache.remember(request, delivery, usage);
    if (this.metrics.enabled) this.metrics.charged(request.model, usage, quota);
    request.trace?.finish(usage);
  }
}

/** The request's media charge, its seconds taken from the answer when the answer reported them. */
function billedMedia(media: MediaCharge | undefined, delivery: Delivery): MediaCharge | undefined {
  if (!media || delivery.mediaSeconds === undefined) return media;
  return { ...media, count: delivery.mediaSeconds, basis: 'answer' };
}

/** The upstream's usage, when it reported a believable one. */
function reportedUsage(delivery: Delivery): BilledUsage | undefined {
  const reported = delivery.usage;
  if (!reported || !isBelievableUsage(reported)) return undefined;
  const cachedTokens = Math.min(reported.cachedTokens, reported.promptTokens);
  const billed: BilledUsage = { promptTokens: reported.promptTokens, completionTokens: reported.completionTokens, cachedTokens, cacheWriteTokens: Math.min(reported.cacheWriteTokens, reported.promptTokens - cachedTokens) };
  if (reported.audioInputTokens || reported.audioOutputTokens) {
    billed.audioInputTokens = reported.audioInputTokens;
    billed.audioOutputTokens = reported.audioOutputTokens;
  }
  return billed;
}

/**
 * The log row's `other` (the console's charge detail), written out as JSON text: stringifying
 * a fresh object walks its properties generically and cost twice as much on every request.
 * Numbers go through jsonNumber and strings through JSON.stringify, so the text is valid JSON.
 */
function chargeDetail(request: PreparedRequest, delivery: Delivery, sheet: PriceSheet, usage: BilledUsage, userGroupRatio: number | null | undefined, isMapped: boolean, media: MediaCharge | undefined, textMembers: string): string {
  const frt = delivery.firstByteAt === undefined ? -1 : Math.round(delivery.firstByteAt - request.startedAt);
  let usageMembers = usageDetails(delivery.usage);
  if (usage.cacheWriteTokens) usageMembers += `,"cache_creation_ratio":${jsonNumber(sheet.cacheWriteRatio ?? 1)}`;
  const mappingMembers = isMapped ? `,"is_model_mapped":true,"upstream_model_name":${JSON.stringify(delivery.upstreamModel)}` : ',"is_model_mapped":false';
  let json = `{${chargeDetailMembers(request, { frt, sheet, cachedTokens: usage.cachedTokens, userGroupRatio }, usageMembers, mappingMembers)}`;
  if (delivery.channel.keys.length > 1) json += `,"key_index":${delivery.keyIndex}`;
  // A fallback model served: model_name is the serving model (priced at it); these name both.
  if (request.requestedModel !== undefined) json += `,"requested_model":${JSON.stringify(request.requestedModel)},"fallback_model":${JSON.stringify(request.model)}`;
  if (request.route.websocket) json += socketDetails(sheet, usage);
  if (media) json += `,"media_price":${JSON.stringify(media)}`;
  if (request.clientGone()) json += ',"client_disconnected":true';
  return `${json},${textMembers},"admin_info":{"use_channel":${JSON.stringify(request.tried)}}}`;
}

/** The usage counts beyond prompt, completion and cache reads, as more of chargeDetail's fields. */
function usageDetails(usage: Usage | undefined): string {
  if (!usage) return '';
  let json = '';
  if (usage.cacheWriteTokens) json += `,"cache_creation_tokens":${jsonNumber(usage.cacheWriteTokens)}`;
  if (usage.reasoningTokens) json += `,"reasoning_tokens":${jsonNumber(usage.reasoningTokens)}`;
  if (usage.audioInputTokens) json += `,"audio_input":${jsonNumber(usage.audioInputTokens)}`;
  if (usage.audioOutputTokens) json += `,"audio_output":${jsonNumber(usage.audioOutputTokens)}`;
  if (usage.imageInputTokens) json += `,"image_input":${jsonNumber(usage.imageInputTokens)}`;
  if (usage.imageOutputTokens) json += `,"image_output":${jsonNumber(usage.imageOutputTokens)}`;
  return json;
}

/**
 * The fields of a call made over a WebSocket (spec part 3): the ws flag and, for Realtime (the
 * sheet carries audio ratios), the audio flag, the text counts and the audio ratios.
 */
function socketDetails(sheet: PriceSheet, usage: BilledUsage): string {
  if (sheet.audioRatio === undefined) return ',"ws":true';
  const audioInput = usage.audioInputTokens ?? 0;
  const audioOutput = usage.audioOutputTokens ?? 0;
  // audio_input and audio_output, when not 0, are among usageDetails' fields.
  const json = `,"ws":true,"audio":${audioInput + audioOutput > 0},"text_input":${jsonNumber(usage.promptTokens - audioInput)},"text_output":${jsonNumber(usage.completionTokens - audioOutput)}`;
  return `${json},"audio_ratio":${jsonNumber(sheet.audioRatio)},"audio_completion_ratio":${jsonNumber(sheet.audioCompletionRatio ?? sheet.completionRatio)}`;
}

/** A consume row's text: its stored `content`, and its message key and parameters as members of `other`'s JSON. */
interface ChargeText {
  content: string;
  otherMembers: string;
}

/** Log texts by price, kept so a request does not format its model's text again (bounded: prices change rarely). */
const chargeTexts = new Map<string, ChargeText>();
const CHARGE_TEXTS_KEPT = 1000;

/** A media call's log text: unit price × count (in images, seconds or calls), and the group ratio. */
function describeMediaCharge(media: MediaCharge, groupRatio: number): ChargeText {
  const text = logText(MEDIA_LOG_KEYS[media.unit], { price: media.price, count: media.count, groupRatio });
  return { content: logContent(text), otherMembers: logTextJsonMembers(text) };
}

const MEDIA_LOG_KEYS = { image: 'consume_media_image', second: 'consume_media_second', call: 'consume_media_call' } as const satisfies Record<MediaCharge['unit'], LogMessageKey>;

function describeCharge(sheet: PriceSheet): ChargeText {
  const key = sheet.quotaType === QUOTA_TYPE_PER_CALL ? `${sheet.modelPrice}/${sheet.groupRatio}` : `${sheet.modelRatio}:${sheet.completionRatio}:${sheet.groupRatio}`;
  let described = chargeTexts.get(key);
  if (described === undefined) {
    const text =
      sheet.quotaType === QUOTA_TYPE_PER_CALL
        ? logText('consume_per_call', { modelPrice: sheet.modelPrice, groupRatio: sheet.groupRatio })
        : logText('consume_per_token', { modelRatio: sheet.modelRatio, completionRatio: sheet.completionRatio, groupRatio: sheet.groupRatio });
    described = { content: logContent(text), otherMembers: logTextJsonMembers(text) };
    if (chargeTexts.size >= CHARGE_TEXTS_KEPT) chargeTexts.clear();
    chargeTexts.set(key, described);
  }
  return described;
}
