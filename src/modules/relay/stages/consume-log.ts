import type { BilledUsage } from '../../billing/billing-formula';
import type { Settlement } from '../../billing/settlement-batcher.service';
import { nowSeconds } from '../../../database/columns';
import { LOG_TYPE_CONSUME } from '../../logs/entities/log.entity';
import type { BatchedLogRow } from '../../logs/log-writer';
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
