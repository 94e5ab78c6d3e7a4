import { Injectable } from '@nestjs/common';
import { isBelievableUsage, settleQuota, type BilledUsage, type PriceSheet } from '../../billing/billing-formula';
import { LOG_TYPE_CONSUME } from '../../logs/entities/log.entity';
import { OptionsService } from '../../options/options.service';
import type { Usage } from '../providers/usage';
import { PLAYGROUND_TOKEN_NAME } from '../relay-caller';
import { countPromptTokens, countTextTokens } from '../token-counter';
import type { Delivery, PreparedRequest } from './relay-request';

/**
 * The last stage: what the delivered answer costs, charged through the request's billing
 * hold with its log row. The write itself happens off the request path, in batches.
 */
@Injectable()
export class RelaySettleStage {
  constructor(private readonly options: OptionsService) {}

  settle(request: PreparedRequest, delivery: Delivery): void {
    const { caller, sheet } = request;
    const usage = billedUsage(request, delivery);
    const quota = settleQuota(sheet, usage);
    const isMapped = delivery.upstreamModel !== request.model;
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
          use_time: Math.round((performance.now() - request.startedAt) / 1000),
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
            ...usageDetails(delivery.usage),
            ...(usage.cacheWriteTokens ? { cache_creation_ratio: sheet.cacheWriteRatio ?? 1 } : {}),
            model_price: sheet.quotaType === 1 ? sheet.modelPrice : -1,
            user_group_ratio: request.userGroupRatio ?? -1,
            is_model_mapped: isMapped,
            ...(isMapped ? { upstream_model_name: delivery.upstreamModel } : {}),
            request_path: request.route.spec.path,
            request_id: request.requestId,
            ...(request.route.inbound.wire === 'claude' ? { claude: true } : {}),
            client_disconnected: request.clientGone() || undefined,
            admin_info: { use_channel: request.tried },
          }),
        }
      : undefined;
    request.billing.settle(quota, delivery.channel.id, log);
  }
}

/** The upstream's usage when it is believable, else our own count of the prompt and of what was delivered. */
function billedUsage(request: PreparedRequest, delivery: Delivery): BilledUsage {
  const reported = delivery.usage;
  if (reported && isBelievableUsage(reported)) {
    const cachedTokens = Math.min(reported.cachedTokens, reported.promptTokens);
    return { promptTokens: reported.promptTokens, completionTokens: reported.completionTokens, cachedTokens, cacheWriteTokens: Math.min(reported.cacheWriteTokens, reported.promptTokens - cachedTokens) };
  }
  const promptTokens = request.body ? countPromptTokens(request.route.spec.endpoint, request.model, request.body) : 0;
  return { promptTokens, completionTokens: countTextTokens(request.model, delivery.text()), cachedTokens: 0 };
}

/** The usage counts beyond prompt, completion and cache reads, for the console's charge detail. */
function usageDetails(usage: Usage | undefined): Record<string, number> {
  if (!usage) return {};
  const details: Record<string, number> = {};
  if (usage.cacheWriteTokens) details.cache_creation_tokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens) details.reasoning_tokens = usage.reasoningTokens;
  if (usage.audioInputTokens) details.audio_input = usage.audioInputTokens;
  if (usage.audioOutputTokens) details.audio_output = usage.audioOutputTokens;
  if (usage.imageInputTokens) details.image_input = usage.imageInputTokens;
  if (usage.imageOutputTokens) details.image_output = usage.imageOutputTokens;
  return details;
}

function describeCharge(sheet: PriceSheet): string {
  if (sheet.quotaType === 1) return `model price ${sheet.modelPrice}, group ratio ${sheet.groupRatio}`;
  return `model ratio ${sheet.modelRatio}, completion ratio ${sheet.completionRatio}, group ratio ${sheet.groupRatio}`;
}
