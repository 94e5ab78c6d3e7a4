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
  content: string;
  /** JSON text: what the relay records about a charge (frt, ratios, model price, admin_info, …). */
  other: string;
}

/** What administrators see besides: the channel, the caller's IP and the whole `other`. */
export interface AdminLogView extends LogView {
  channel: number;
  channel_name: string;
  ip: string;
}

export interface LogStat {
  /** Quota charged by consume entries in the filter. */
  quota: number;
  /** Consume entries in the last 60 seconds that match the filter (its time range aside). */
  rpm: number;
  /** Prompt plus completion tokens of those entries. */
  tpm: number;
}
