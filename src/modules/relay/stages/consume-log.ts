import type { BilledUsage, PriceSheet } from '../../billing/billing-formula';
import type { Settlement } from '../../billing/settlement-batcher.service';
import { nowSeconds } from '../../../database/columns';
import { LOG_TYPE_CONSUME } from '../../logs/entities/log.entity';
import type { BatchedLogRow } from '../../logs/log-writer';
import { QUOTA_TYPE_PER_CALL } from '../../pricing/pricing.wire';
import { PLAYGROUND_TOKEN_NAME, type RelayCaller } from '../relay-caller';
import type { PreparedRequest } from './relay-request';

/** What a relay call's consume log row says about its charge; the rest of the row comes from the request. */
export interface ConsumeCharge {
  content: string;
  quota: number;
  usage: BilledUsage;
  channelId: number;
  channelName: string;
  /** The group it was billed in. */
  group: string;
  /** The charge detail, as JSON text. */
  other: string;
}

/** The consume log row of a settled relay call: the caller, its token and address, the model, the time it took, and the charge. */
export function consumeLogRow(request: PreparedRequest, charge: ConsumeCharge): NonNullable<Settlement['log']> {
  const { caller } = request;
  return {
    user_id: caller.user.id,
    created_at: Math.floor(Date.now() / 1000),
    type: LOG_TYPE_CONSUME,
    content: charge.content,
    username: caller.user.username,
    token_name: caller.token ? caller.token.name : PLAYGROUND_TOKEN_NAME,
    token_id: caller.token?.id ?? 0,
    model_name: request.model,
    quota: charge.quota,
    prompt_tokens: charge.usage.promptTokens,
    completion_tokens: charge.usage.completionTokens,
    use_time: Math.round((performance.now() - request.startedAt) / 1000),
    is_stream: request.stream,
    channel_id: charge.channelId,
    channel_name: charge.channelName,
    group: charge.group,
    ip: caller.ip,
    other: charge.other,
  };
}

/** What a log row without token counts says besides its caller. */
export type CallerLogFields = Pick<BatchedLogRow, 'type' | 'model_name' | 'quota' | 'channel_id' | 'channel_name' | 'group' | 'ip' | 'content' | 'other'>;

/** A log row of the caller's without token counts: a task's charge, or a hold given back with its reason. */
export function callerLogRow(caller: RelayCaller, fields: CallerLogFields): NonNullable<Settlement['log']> {
  return {
    user_id: caller.user.id,
    created_at: nowSeconds(),
    username: caller.user.username,
    token_name: caller.token?.name ?? '',
    token_id: caller.token?.id ?? 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: false,
    ...fields,
  };
}

/** What every consume row's charge detail (`other`) says about the price: the sheet it was billed at and the first-token time. */
export interface ChargePrice {
  /** First-token time in ms; -1 when unknown. */
  frt: number;
  sheet: PriceSheet;
  cachedTokens: number;
  userGroupRatio: number | null | undefined;
}

/**
 * The members every consume row's `other` carries, a settled call's and a cache hit's alike, as
 * JSON text (the settle stage writes `other` by hand: see its chargeDetail): the first-token
 * time, the ratios, the model price and the request's path and id. `usageMembers` go after the
 * cache ratio and `mappingMembers` after the user's group ratio, each starting with a comma.
 */
export function chargeDetailMembers(request: PreparedRequest, price: ChargePrice, usageMembers = '', mappingMembers = ''): string {
  const { sheet } = price;
  let json = `"frt":${jsonNumber(price.frt)},"model_ratio":${jsonNumber(sheet.modelRatio)},"group_ratio":${jsonNumber(sheet.groupRatio)}`;
  json += `,"completion_ratio":${jsonNumber(sheet.completionRatio)},"cache_tokens":${jsonNumber(price.cachedTokens)},"cache_ratio":${jsonNumber(sheet.cacheRatio)}`;
  json += usageMembers;
  json += `,"model_price":${jsonNumber(sheet.quotaType === QUOTA_TYPE_PER_CALL ? sheet.modelPrice : -1)},"user_group_ratio":${jsonNumber(price.userGroupRatio ?? -1)}`;
  json += mappingMembers;
  json += `,"request_path":${JSON.stringify(request.route.spec.path)},"request_id":${JSON.stringify(request.requestId)}`;
  if (request.route.inbound.wire === 'claude') json += ',"claude":true';
  return json;
}

/** A number as JSON writes it: null when it is not finite. */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
