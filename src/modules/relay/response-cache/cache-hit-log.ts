import type { BilledUsage } from '../../billing/billing-formula';
import type { Settlement } from '../../billing/settlement-batcher.service';
import { logContent, logText, logTextJsonMembers } from '../../logs/log-text';
import { chargeDetailMembers, consumeLogRow, jsonNumber } from '../stages/consume-log';
import type { PreparedRequest } from '../stages/relay-request';

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
  const frt = Math.round(performance.now() - request.startedAt);
  // The text as every log row's: a message key the console renders in the reader's language, and `content` in Chinese.
  const text = logText('consume_cache_hit', { ratio: price.ratio, fullQuota: price.fullPrice });
  const detail = chargeDetailMembers(request, { frt, sheet: request.sheet, cachedTokens: usage.cachedTokens, userGroupRatio: request.userGroupRatio });
  const other = `{"cache_hit":true,"cache_hit_ratio":${jsonNumber(price.ratio)},"cache_full_quota":${jsonNumber(price.fullPrice)},${detail},"admin_info":{"use_channel":[]},${logTextJsonMembers(text)}}`;
  return consumeLogRow(request, {
    content: logContent(text),
    quota,
    usage,
    channelId: 0,
    channelName: '',
    group: request.caller.group,
    other,
  });
}
