import type { BilledUsage } from '../../billing/billing-formula';
import type { Settlement } from '../../billing/settlement-batcher.service';
import { logText, logTextColumns } from '../../logs/log-text';
import { consumeLogRow } from '../stages/consume-log';
import type { PreparedRequest } from '../stages/relay-request';
import { QUOTA_TYPE_PER_CALL } from '../../pricing/pricing.wire';

/** What a hit's price came from: the hit ratio, and what the stored answer costs this caller at full price. */
export interface HitPrice {
  ratio: number;
  fullPrice: number;
}

/**
 * The consume log row of a call the response cache answered: no channel (channel_id 0), the
 * stored answer's token counts, and in `other` the charge detail the console shows with
 * `cache_hit: true`, the hit ratio and the full price it was taken from.
 */
export function cacheHitLog(request: PreparedRequest, usage: BilledUsage, quota: number, price: HitPrice): NonNullable<Settlement['log']> {
  const { sheet } = request;
  const other = {
    cache_hit: true,
    cache_hit_ratio: price.ratio,
    cache_full_quota: price.fullPrice,
    frt: Math.round(performance.now() - request.startedAt),
    model_ratio: sheet.modelRatio,
    group_ratio: sheet.groupRatio,
    completion_ratio: sheet.completionRatio,
    cache_tokens: usage.cachedTokens,
    cache_ratio: sheet.cacheRatio,
    model_price: sheet.quotaType === QUOTA_TYPE_PER_CALL ? sheet.modelPrice : -1,
    user_group_ratio: request.userGroupRatio ?? -1,
    request_path: request.route.spec.path,
    request_id: request.requestId,
    ...(request.route.inbound.wire === 'claude' ? { claude: true } : {}),
    admin_info: { use_channel: [] },
  };
  // The text as every log row's: a message key the console renders in the reader's language, and `content` in Chinese.
  const { content, other: otherJson } = logTextColumns(logText('consume_cache_hit', { ratio: price.ratio, fullQuota: price.fullPrice }), other);
  return consumeLogRow(request, {
    content,
    quota,
    usage,
    channelId: 0,
    channelName: '',
    group: request.caller.group,
    other: otherJson,
  });
}
