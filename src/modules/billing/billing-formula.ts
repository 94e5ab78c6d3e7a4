import { QUOTA_TYPE_PER_CALL, type QuotaType } from '../pricing/pricing.wire';

/**
 * How quota is computed. One quota unit is 1/QuotaPerUnit dollar (QuotaPerUnit = 500000 by
 * default). A model ratio r means r × $2 per 1M input tokens, so one input token costs
 *
 *     r × 2 / 1e6 dollars = r × 2 × QuotaPerUnit / 1e6 quota   (= r quota at QuotaPerUnit 500000).
 *
 * Per-token billing (quota_type 0):
 *     quota = (prompt − cached − cacheWrite + cached × cacheRatio + cacheWrite × cacheWriteRatio
 *              + completion × completionRatio)
 *             × modelRatio × groupRatio × 2 × QuotaPerUnit / 1e6
 * Per-call billing (quota_type 1, a fixed model_price in dollars):
 *     quota = modelPrice × QuotaPerUnit × groupRatio
 * A Realtime response (the sheet carries audio ratios) bills its audio tokens apart from the text:
 *     prompt and completion above count text only, plus
 *     audioInput × audioRatio + audioOutput × audioRatio × audioCompletionRatio
 * Rounded to an integer once, at the end; a priced request with nonzero usage costs at least 1.
 * A call billed from a media price table (images, audio seconds, task actions; see
 * pricing/media-prices.ts) costs
 *     quota = count × unitPrice × QuotaPerUnit × groupRatio
 * rounded once, and is held at that amount (transcriptions settle at the answer's duration).
 */

export interface PriceSheet {
  quotaType: QuotaType;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  /** Prompt tokens written to the provider's cache are billed at this multiple (Claude: 1.25). */
  cacheWriteRatio?: number;
  /** Dollars per call; only for quotaType 1. */
  modelPrice: number;
  groupRatio: number;
  quotaPerUnit: number;
  /** Realtime only: audio input tokens at this multiple of the input price. */
  audioRatio?: number;
  /** Realtime only: audio output tokens at this multiple of the audio input price. */
  audioCompletionRatio?: number;
}

export interface BilledUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (part of promptTokens). */
  cacheWriteTokens?: number;
  /** Audio input tokens (part of promptTokens); billed apart only when the sheet has audio ratios. */
  audioInputTokens?: number;
  /** Audio output tokens (part of completionTokens); billed apart only when the sheet has audio ratios. */
  audioOutputTokens?: number;
}

/** A call billed per unit from a media price table, as its log row names it (`other.media_price`). */
export interface MediaCharge {
  unit: 'image' | 'second' | 'call';
  count: number;
  /** Dollars per unit. */
  price: number;
  /** Images: the size and quality priced ('' when the request named none). */
  size?: string;
  quality?: string;
  /** Seconds: what they were measured from: the text (speech), the upload, or the answer's duration. */
  basis?: 'text' | 'upload' | 'answer';
  /** Task calls: the platform and action priced. */
  platform?: string;
  action?: string;
}

/** What a media call costs: count × unit price, in quota at the group ratio, rounded once. */
export function mediaQuota(charge: MediaCharge, groupRatio: number, quotaPerUnit: number): number {
  return Math.max(0, Math.round(charge.count * charge.price * quotaPerUnit * groupRatio));
}

/** Above this a single request's token count is not believed (a broken or hostile upstream). */
export const MAX_BELIEVABLE_TOKENS = 50_000_000;

function quotaPerToken(sheet: PriceSheet): number {
  return (sheet.modelRatio * sheet.groupRatio * 2 * sheet.quotaPerUnit) / 1e6;
}

/** What a finished request costs. */
export function settleQuota(sheet: PriceSheet, usage: BilledUsage): number {
  if (sheet.quotaType === QUOTA_TYPE_PER_CALL) return Math.max(0, Math.round(sheet.modelPrice * sheet.quotaPerUnit * sheet.groupRatio));
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  let weightedTokens =
    usage.promptTokens - cached - written + cached * sheet.cacheRatio + written * (sheet.cacheWriteRatio ?? 1) + usage.completionTokens * sheet.completionRatio;
  if (sheet.audioRatio !== undefined) weightedTokens += audioSurcharge(sheet, sheet.audioRatio, usage);
  const exact = weightedTokens * quotaPerToken(sheet);
  if (!(exact > 0)) return 0;
  return Math.max(1, Math.round(exact));
}

/**
 * The audio tokens' weight beyond what the text formula gave them: they leave the text counts
 * (input at 1, output at the completion ratio) and come back at the audio ratios.
 */
function audioSurcharge(sheet: PriceSheet, audioRatio: number, usage: BilledUsage): number {
  const audioInput = Math.min(usage.audioInputTokens ?? 0, usage.promptTokens);
  const audioOutput = Math.min(usage.audioOutputTokens ?? 0, usage.completionTokens);
  const audioOutputRatio = audioRatio * (sheet.audioCompletionRatio ?? sheet.completionRatio);
  return audioInput * (audioRatio - 1) + audioOutput * (audioOutputRatio - sheet.completionRatio);
}

/**
 * What is taken before the upstream call: the cost's upper bound when the request states its
 * output limit (max_tokens, max_completion_tokens or max_output_tokens),
 *
 *     (prompt estimate + maxTokens × completionRatio) × modelRatio × groupRatio,
 *
 * so a request that states a limit can never overdraw; without a limit, the prompt estimate
 * or PreConsumedQuota tokens, whichever is more, at the input price. A fixed price for per-call
 * models. Rounded up so the hold is never short of the bound; settlement takes or returns the
 * difference.
 */
export function preConsumeQuotaFor(sheet: PriceSheet, promptEstimate: number, maxTokens: number, preConsumedTokens: number): number {
  if (sheet.quotaType === QUOTA_TYPE_PER_CALL) return Math.max(0, Math.ceil(sheet.modelPrice * sheet.quotaPerUnit * sheet.groupRatio));
  const weightedTokens = maxTokens > 0 ? promptEstimate + maxTokens * sheet.completionRatio : Math.max(promptEstimate, preConsumedTokens);
  return Math.max(0, Math.ceil(weightedTokens * quotaPerToken(sheet)));
}

/** True when reported usage can be billed as it stands: whole, non-negative and not absurd. */
export function isBelievableUsage(usage: BilledUsage): boolean {
  return [usage.promptTokens, usage.completionTokens, usage.cachedTokens].every(
    (count) => Number.isInteger(count) && count >= 0 && count <= MAX_BELIEVABLE_TOKENS,
  );
}
