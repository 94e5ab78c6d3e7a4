// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** How the relay sees a channel now (this instance, blended with its peers' figures when Redis is configured). */
export interface ChannelHealthView {
  /** The weight the draw in its tier uses now: `weight` scaled down by measured latency (against the fastest channel of its priority) and error rate; 0 while its breaker rests. */
  effective_weight: number;
  /** The circuit breaker: `closed` (serving), `open` (resting after consecutive faults) or `half_open` (one probe call goes through). */
  breaker_state: 'closed' | 'open' | 'half_open';
  /** EWMA latency to the first byte of successful calls, ms; 0 before any call. */
  health_latency_ms: number;
  /** EWMA share of calls that failed through the channel's fault, 0..1. */
  health_error_rate: number;
}

/** A channel as every answer shows it. `key` is always empty: keys never leave the server. */
export interface ChannelView extends ChannelHealthView {
  id: number;
  type: number;
  key: '';
  name: string;
  status: number;
  openai_organization: string;
  test_model: string;
  base_url: string;
  other: string;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  /** JSON text: {status_reason, status_time}. */
  other_info: string;
  tag: string;
  priority: number;
  weight: number;
  auto_ban: number;
  max_input_tokens: number;
  /** Milliseconds; 0 means never tested. */
  response_time: number;
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  created_time: number;
  test_time: number;
  expired_time: number;
  /** How a channel with several keys (one per line) draws them: at random among the enabled ones, or in turn. */
  multi_key_mode: ChannelKeyMode;
}

export type ChannelKeyMode = 'random' | 'polling';

/** One key of a channel, as GET /api/channel/{id}/keys shows it: masked, never the key itself. */
export interface ChannelKeyRow {
  /** The key's position in the key field, from 0: the `{index}` of the key routes and the log's `other.key_index`. */
  index: number;
  masked_key: string;
  /** 1 enabled, 2 disabled by an admin, 3 disabled automatically. */
  status: number;
  /** Why the key was disabled, and when (epoch seconds); empty and 0 while it is enabled. */
  status_reason: string;
  status_time: number;
  /** The last upstream error this key got, scrubbed of secrets, and when; this instance's memory, empty since it started. */
  last_error: string;
  last_error_time: number;
  /** Attempts this instance sent with the key since it started. */
  use_count: number;
}

export interface ChannelKeyList {
  multi_key_mode: ChannelKeyMode;
  keys: ChannelKeyRow[];
}

/**
 * In tag mode one row stands for all channels sharing a tag; untagged channels are rows of
 * their own (plain ChannelView, without `is_tag`).
 */
export interface ChannelTagRow {
  is_tag: true;
  tag: string;
  /** Channels with this tag (those matching the search, in search), in list order. */
  children: ChannelView[];
  channel_count: number;
  enabled_count: number;
  /** The highest priority and the sum of weights of the children, for display. */
  priority: number;
  weight: number;
}

export type ChannelListRow = ChannelView | ChannelTagRow;
