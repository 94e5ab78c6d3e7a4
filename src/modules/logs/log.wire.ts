// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** A log entry as the user's own log page shows it: no channel, IP or admin_info. */
export interface LogView {
  id: number;
  created_at: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  group: string;
  is_stream: boolean;
  /** Seconds. */
  use_time: number;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
  /**
   * The row's text as stored: Chinese (the product's default language) for every row, and the only text of rows
   * written before message keys. Kept for API clients that show it as it is; the console shows
   * `other.message_key` in the reader's language when the row has one.
   */
  content: string;
  /** JSON text of a LogOther: what the relay records about a charge (frt, ratios, model price, admin_info, …) and the row's message key. */
  other: string;
}

/** What administrators see besides: the channel, the caller's IP and the whole `other`. */
export interface AdminLogView extends LogView {
  channel: number;
  channel_name: string;
  ip: string;
}

/**
 * The text of a log row as a message: the console renders `logs:messages.<key>` with the parameters in the reader's
 * language; the server catalogue holds the same message as `log.<key>` and writes the row's `content` from it in
 * Chinese. A spec (log-text.spec.ts) checks both sides have every key with the same parameters.
 */
export const LOG_MESSAGE_KEYS = [
  'consume_per_token',
  'consume_per_call',
  'consume_cache_hit',
  'consume_media_image',
  'consume_media_second',
  'consume_media_call',
  'task_charged',
  'task_submit_failed',
  'task_submit_failed_because',
  'task_submit_refused',
  'task_not_recorded',
  'task_not_recorded_because',
  'task_failed_refunded',
  'task_failed_refunded_because',
  'hold_refunded_after_crash',
  'new_user_quota',
  'invitee_reward',
  'inviter_reward',
  'aff_transfer',
  'root_initial_quota',
  'admin_quota_changed',
  'admin_quota_moved_meanwhile',
  'redeemed',
  'online_top_up',
  'plan_bought',
  'plan_renewed',
  'plan_bought_paid',
  'plan_renewed_paid',
  'channel_disabled',
  'channel_enabled',
] as const;
export type LogMessageKey = (typeof LOG_MESSAGE_KEYS)[number];

/** A message's parameters: numbers and names, and texts from elsewhere (an upstream's error) that stay as they came. */
export type LogMessageParams = Record<string, string | number>;

/** The JSON in a log row's `other`. Every field is optional: rows of each kind, and of each age, fill their own. */
export interface LogOther {
  /** The row's text as a message (rows written since issue 31); absent on older rows, which have only `content`. */
  message_key?: LogMessageKey;
  message_params?: LogMessageParams;
  /** First-token time in ms; -1 when unknown. */
  frt?: number;
  model_ratio?: number;
  group_ratio?: number;
  completion_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  cache_creation_tokens?: number;
  cache_creation_ratio?: number;
  /** Completion tokens spent thinking (already in completion_tokens). */
  reasoning_tokens?: number;
  /** USD per call, or -1 for per-token billing. */
  model_price?: number;
  /** The user's own group ratio override, or -1. */
  user_group_ratio?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  reasoning_effort?: string;
  /** The relay path the request came in on. */
  request_path?: string;
  request_id?: string;
  /** The upstream's id of an asynchronous task (Midjourney, Suno). */
  task_id?: string;
  /** Why the ledger moved the balance (top_up, redeem, refund, …). */
  reason?: string;
  /** Administrators only: the channels tried, in order. */
  admin_info?: { use_channel?: number[] };
}

export interface LogStat {
  /** Quota charged by consume entries in the filter. */
  quota: number;
  /** Consume entries in the last 60 seconds that match the filter (its time range aside). */
  rpm: number;
  /** Prompt plus completion tokens of those entries. */
  tpm: number;
}
