import type { MessageCode } from '../../common/i18n/catalogue';
import { audioPricesProblem, imagePricesProblem, taskActionPricesProblem, videoPricesProblem, type AudioPrices, type ImagePrices, type TaskActionPrices, type VideoPrices } from '../pricing/media-prices';
import type { RatioSyncSource } from '../ratio-sync/ratio-sync.wire';
import { DEFAULT_AUDIO_COMPLETION_RATIO, DEFAULT_AUDIO_RATIO, DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_CREATE_CACHE_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from '../pricing/default-ratios';

/**
 * Runtime settings, one declaration per key. To add a setting, append one line in its area:
 * `MyKey: int({ default: 5, min: 0, max: 60, readBy: ['relay'] })`. `OptionKey` then includes
 * it and `options.get('MyKey')` returns a `number`. Every stored value is a string; the
 * declaration checks and normalises it on write and parses it once per change for readers.
 */

/** How a value is checked on write and what readers get back. */
export type OptionKind = 'bool' | 'int' | 'number' | 'string' | 'text' | 'lines' | 'list' | 'url' | 'json' | 'enum';

/** Modules that read a setting. `console` means only the web console reads it (through /api/status or the settings page). */
export type OptionReader =
  | 'auth'
  | 'users'
  | 'tokens'
  | 'channels'
  | 'relay'
  | 'pricing'
  | 'logs'
  | 'system'
  | 'console'
  | 'payment'
  | 'mail'
  | 'oauth'
  | 'tasks'
  | 'monitoring'
  | 'outbound'
  | 'audit'
  | 'scim'
  | 'saml';

/** A JSON setting's structure: a type guard plus the message that names the rule when it fails. */
export interface JsonShape<T> {
  test: (value: unknown) => value is T;
  rule: MessageCode;
  /** For nested tables: where the value first breaks the rule (a path of keys), named in the message as {at}. */
  problem?: (value: unknown) => string | undefined;
}

/** A nested table's shape, from the function that finds where a value breaks it. */
const tableShape = <T>(problem: (value: unknown) => string | undefined, rule: MessageCode): JsonShape<T> => ({
  test: (value): value is T => problem(value) === undefined,
  rule,
  problem,
});

export interface OptionDefinition<T = unknown> {
  kind: OptionKind;
  /** The default, in its stored (string) form. */
  default: string;
  /** Stored string (already validated) → the typed value readers get. */
  parse: (stored: string) => T;
  /** Bounds, required for every number. */
  min?: number;
  max?: number;
  /** Never sent back to the console; only whether it is set. Never published. */
  secret?: boolean;
  /** Only the super administrator may change it (the system tab). */
  rootOnly?: boolean;
  /** For kind 'json': the structure the parsed value must have. */
  shape?: JsonShape<T>;
  /** For kind 'enum'. */
  values?: readonly string[];
  /** The /api/status field that publishes the value to everyone; absent = not published. */
  status?: string;
  /** Modules that read it (documentation, and what the settings page test checks against). */
  readBy: readonly OptionReader[];
  /** Stored and validated, but no feature reads it yet: the feature (issue) it waits for. */
  waitsFor?: string;
}

/** Fields every declaration helper accepts besides the default. */
type Common = Pick<OptionDefinition, 'readBy' | 'secret' | 'rootOnly' | 'status' | 'waitsFor'>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Upper bound of a price, ratio or multiplier in the JSON maps: far above any real one, low enough that a bill stays a finite number. */
const MAX_RATIO = 1_000_000;
/** Upper bound of a token count in the JSON maps (claude.default_max_tokens). */
const MAX_TOKENS_SETTING = 100_000_000;
export const isRatio = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_RATIO;
const isTokenCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TOKENS_SETTING;
const isNonNegativeInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isString = (value: unknown): value is string => typeof value === 'string';
const mapOf = <T>(value: unknown, item: (v: unknown) => v is T): value is Record<string, T> => isPlainObject(value) && Object.values(value).every(item);
const listOf = <T>(value: unknown, item: (v: unknown) => v is T): value is T[] => Array.isArray(value) && value.every(item);

const isRatioSyncSource = (s: unknown): s is RatioSyncSource =>
  isPlainObject(s) &&
  isString(s.name) &&
  s.name.trim() !== '' &&
  s.name.length <= 64 &&
  (s.kind === 'gateway' || s.kind === 'price_list') &&
  isString(s.url) &&
  s.url.length <= 2048 &&
  /^https?:\/\/\S+$/i.test(s.url);

export type NumberMap = Record<string, number>;
export type StringMap = Record<string, string>;
export interface PayMethod {
  name: string;
  type: string;
  color?: string;
}
/** Model → the models to try, in order, when every channel of it failed (ModelFallbacks). */
export type ModelFallbacks = Record<string, string[]>;
/** The most fallback models one model may list: a chain is tried within one RELAY_TIMEOUT, so a long one only waits. */
export const MAX_FALLBACK_MODELS = 10;
const isModelName = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= 191;

/** [request count, success count] per group; a count of 0 means unlimited. */
export type RateLimitPair = [number, number];

/** JSON structures, named for what they hold. */
export const shapes = {
  numberMap: { test: (v): v is NumberMap => mapOf(v, isRatio), rule: 'option.shape.number_map' },
  stringMap: { test: (v): v is StringMap => mapOf(v, isString), rule: 'option.shape.string_map' },
  numberMapByGroup: {
    test: (v): v is Record<string, NumberMap> => mapOf(v, (inner): inner is NumberMap => mapOf(inner, isRatio)),
    rule: 'option.shape.number_map_by_group',
  },
  stringList: { test: (v): v is string[] => listOf(v, isString), rule: 'option.shape.string_list' },
  /** [{name, type, color?}] */
  payMethods: {
    test: (v): v is PayMethod[] =>
      listOf(v, (m): m is PayMethod => isPlainObject(m) && isString(m.name) && isString(m.type) && (m.color === undefined || isString(m.color))),
    rule: 'option.shape.pay_methods',
  },
  /** [{"Chat name": "https://…{key}…{address}"}] */
  chats: { test: (v): v is StringMap[] => listOf(v, (entry): entry is StringMap => mapOf(entry, isString)), rule: 'option.shape.chats' },
  /** {"model": {"header-name": ["value", …]}} */
  headersByModel: {
    test: (v): v is Record<string, Record<string, string[]>> =>
      mapOf(v, (headers): headers is Record<string, string[]> => mapOf(headers, (list): list is string[] => listOf(list, isString))),
    rule: 'option.shape.headers_by_model',
  },
  intMap: { test: (v): v is NumberMap => mapOf(v, isTokenCount), rule: 'option.shape.int_map' },
  /** {"model": ["fallback", …]} */
  modelFallbacks: {
    test: (v): v is ModelFallbacks => mapOf(v, (chain): chain is string[] => listOf(chain, isModelName) && chain.length <= MAX_FALLBACK_MODELS),
    rule: 'option.shape.model_fallbacks',
  },
  /** {"group": [count, successCount]} */
  rateLimitByGroup: {
    test: (v): v is Record<string, RateLimitPair> =>
      mapOf(v, (pair): pair is RateLimitPair => Array.isArray(pair) && pair.length === 2 && pair.every((n) => isNonNegativeInt(n) && n <= 100_000_000)),
    rule: 'option.shape.rate_limit_by_group',
  },
  /** {"model": {"size": price} or {"size": {"quality": price}}} */
  imagePrices: tableShape<ImagePrices>(imagePricesProblem, 'option.shape.image_prices'),
  /** {"model": {"input": price, "output": price}} */
  audioPrices: tableShape<AudioPrices>(audioPricesProblem, 'option.shape.audio_prices'),
  /** {"model": {"resolution": price}} */
  videoPrices: tableShape<VideoPrices>(videoPricesProblem, 'option.shape.video_prices'),
  /** {"platform": {"ACTION": price}} */
  taskActionPrices: tableShape<TaskActionPrices>(taskActionPricesProblem, 'option.shape.task_action_prices'),
  /** [{name, kind, url}], names unique: where ratio sync reads prices. */
  ratioSyncSources: {
    test: (v): v is RatioSyncSource[] =>
      listOf(v, isRatioSyncSource) && new Set(v.map((source) => source.name)).size === v.length,
    rule: 'option.shape.ratio_sync_sources',
  },
} satisfies Record<string, JsonShape<unknown>>;

/** Non-empty trimmed lines; what one-per-line settings hold. */
export const splitLines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const bool = (o: Common & { default: boolean }): OptionDefinition<boolean> => ({ ...o, kind: 'bool', default: String(o.default), parse: (s) => s === 'true' });
const int = (o: Common & { default: number; min: number; max: number }): OptionDefinition<number> => ({ ...o, kind: 'int', default: String(o.default), parse: Number });
const num = (o: Common & { default: number; min: number; max: number }): OptionDefinition<number> => ({ ...o, kind: 'number', default: String(o.default), parse: Number });
const str = (o: Common & { default?: string }): OptionDefinition<string> => ({ ...o, kind: 'string', default: o.default ?? '', parse: (s) => s });
const text = (o: Common & { default?: string }): OptionDefinition<string> => ({ ...o, kind: 'text', default: o.default ?? '', parse: (s) => s });
/** One entry per line, stored as text, read as the list of non-empty trimmed lines. */
const lines = (o: Common & { default?: string }): OptionDefinition<string[]> => ({ ...o, kind: 'lines', default: o.default ?? '', parse: splitLines });
/** Comma-separated, read as the list of non-empty trimmed entries. */
const list = (o: Common & { default?: string }): OptionDefinition<string[]> => ({
  ...o,
  kind: 'list',
  default: o.default ?? '',
  parse: (s) => s.split(',').map((item) => item.trim()).filter((item) => item !== ''),
});
/** http(s) address without trailing slashes, or empty. */
const url = (o: Common & { default?: string }): OptionDefinition<string> => ({ ...o, kind: 'url', default: o.default ?? '', parse: (s) => s });
const json = <T>(o: Common & { default: T; shape: JsonShape<T> }): OptionDefinition<T> => ({
  ...o,
  kind: 'json',
  default: JSON.stringify(o.default, null, 2),
  parse: (s) => JSON.parse(s) as T,
});
const oneOf = <V extends string>(o: Common & { default: V; values: readonly V[] }): OptionDefinition<V> => ({
  ...o,
  kind: 'enum',
  default: o.default,
  parse: (s) => s as V,
});

/** Upper bound of quota amounts in settings: far above any real grant, far below 2^53 so sums stay exact. */
const MAX_QUOTA = 1_000_000_000_000_000;
const ROOT = { rootOnly: true } as const;
const SECRET = { rootOnly: true, secret: true } as const;

export const DEFAULT_AUTOMATIC_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
  'Incorrect API key provided',
  'invalid_api_key',
].join('\n');

/** Every setting the console can read or write, with its default. Unknown keys are refused. */
export const OPTION_DEFINITIONS = {
  // General and quota
  TopUpLink: url({ readBy: ['console'], status: 'top_up_link' }),
  'general_setting.docs_link': url({ readBy: ['console'], status: 'docs_link' }),
  QuotaPerUnit: num({ default: 500000, min: 1, max: 1_000_000_000, readBy: ['pricing', 'users', 'console'], status: 'quota_per_unit' }),
  RetryTimes: int({ default: 0, min: 0, max: 10, readBy: ['relay'] }),
  USDExchangeRate: num({ default: 7.3, min: 0, max: 1_000_000, readBy: ['console'], status: 'usd_exchange_rate' }),
  DisplayInCurrencyEnabled: bool({ default: true, readBy: ['relay', 'console'], status: 'display_in_currency' }),
  DisplayTokenStatEnabled: bool({ default: true, readBy: ['relay', 'console'], status: 'display_token_stat' }),
  DefaultCollapseSidebar: bool({ default: false, readBy: ['console'], status: 'default_collapse_sidebar' }),
  DemoSiteEnabled: bool({ default: false, readBy: ['console'], status: 'demo_site_enabled' }),
  SelfUseModeEnabled: bool({ default: false, readBy: ['relay', 'console'], status: 'self_use_mode_enabled' }),
  QuotaForNewUser: int({ default: 0, min: 0, max: MAX_QUOTA, readBy: ['users'] }),
  PreConsumedQuota: int({ default: 500, min: 0, max: MAX_QUOTA, readBy: ['relay'] }),
  QuotaForInviter: int({ default: 0, min: 0, max: MAX_QUOTA, readBy: ['users'] }),
  QuotaForInvitee: int({ default: 0, min: 0, max: MAX_QUOTA, readBy: ['users'] }),
  QuotaRemindThreshold: int({ default: 1000, min: 0, max: MAX_QUOTA, readBy: ['monitoring'] }),
  /** Upstream stream chunks queued for a slow client before the upstream is paused (0: pause as soon as the client's buffer is full). */
  StreamCacheQueueLength: int({ default: 0, min: 0, max: 100_000, readBy: ['relay'] }),
  ChatLink: url({ readBy: ['console'], status: 'chat_link' }),
  ChatLink2: url({ readBy: ['console'], status: 'chat_link2' }),

  // Drawing and tasks
  DrawingEnabled: bool({ default: false, readBy: ['console', 'tasks'], status: 'enable_drawing' }),
  TaskEnabled: bool({ default: false, readBy: ['console', 'tasks'], status: 'enable_task' }),
  MjNotifyEnabled: bool({ default: false, readBy: ['console', 'tasks'], status: 'mj_notify_enabled' }),
  MjAccountFilterEnabled: bool({ default: false, readBy: ['tasks'] }),
  MjForwardUrlEnabled: bool({ default: true, readBy: ['tasks'] }),
  MjModeClearEnabled: bool({ default: true, readBy: ['tasks'] }),
  MjActionCheckSuccessEnabled: bool({ default: true, readBy: ['tasks'] }),

  // Sensitive words
  CheckSensitiveEnabled: bool({ default: false, readBy: ['relay'] }),
  CheckSensitiveOnPromptEnabled: bool({ default: false, readBy: ['relay'] }),
  SensitiveWords: lines({ readBy: ['relay'] }),

  // Logs and dashboard
  LogConsumeEnabled: bool({ default: true, readBy: ['relay'] }),
  DataExportEnabled: bool({ default: false, readBy: ['console', 'monitoring'], status: 'enable_data_export' }),
  DataExportInterval: int({ default: 5, min: 1, max: 1440, readBy: ['monitoring'] }),
  DataExportDefaultTime: oneOf({ default: 'hour', values: ['hour', 'day', 'week'], readBy: ['console'], status: 'data_export_default_time' }),
  /** Days the administrators' audit log keeps its rows; 0 keeps them for ever. Root's: the record of what admins did. */
  AuditLogRetentionDays: int({ ...ROOT, default: 0, min: 0, max: 36_500, readBy: ['audit'] }),

  // Monitoring
  /** Seconds: a channel test slower than this disables the channel (0 = never for slowness). */
  ChannelDisableThreshold: num({ default: 5, min: 0, max: 86_400, readBy: ['relay', 'monitoring'] }),
  AutomaticDisableChannelEnabled: bool({ default: false, readBy: ['relay'] }),
  AutomaticEnableChannelEnabled: bool({ default: false, readBy: ['relay', 'monitoring'] }),
  /** One per line, matched case-insensitively. */
  AutomaticDisableKeywords: lines({ default: DEFAULT_AUTOMATIC_DISABLE_KEYWORDS, readBy: ['relay'] }),

  // Routing within a priority tier
  /** Seconds a session or prompt-cache key keeps going to the channel that last served it (0: no affinity). Sliding: each call renews it. */
  ChannelAffinityTTLSeconds: int({ default: 300, min: 0, max: 86_400, readBy: ['relay'] }),
  /** Whether measured latency and error rate scale the static weights inside a tier. */
  ChannelHealthBalancingEnabled: bool({ default: true, readBy: ['relay', 'channels'] }),
  /** Consecutive channel faults that open a channel's circuit breaker (0: no breaker). */
  ChannelBreakerFailures: int({ default: 5, min: 0, max: 1000, readBy: ['relay'] }),
  /** Seconds an open breaker rests before one call probes the channel again. */
  ChannelBreakerCooldownSeconds: int({ default: 30, min: 1, max: 86_400, readBy: ['relay'] }),

  // Response cache (relay/response-cache/): exact repeats of chats, embeddings and reranks answered without an upstream call
  /** Groups whose calls are cached (comma-separated), besides the tokens that opt in with `response_cache`. */
  ResponseCacheGroups: list({ readBy: ['relay'] }),
  /** Seconds an answer stays in the cache. */
  ResponseCacheTTLSeconds: int({ default: 3600, min: 1, max: 2_592_000, readBy: ['relay'] }),
  /** The in-process cache's size (without Redis); an answer larger than an eighth of it is not cached. */
  ResponseCacheMaxMB: int({ default: 64, min: 1, max: 16_384, readBy: ['relay'] }),
  /** What a hit costs, as a share of what the call costs the caller now. */
  ResponseCacheHitRatio: num({ default: 0.1, min: 0, max: 1, readBy: ['relay'] }),
  /** Whether a user's calls may be answered with another user's cached answer (off: each user has a cache of their own). */
  ResponseCacheSharedAcrossUsers: bool({ default: false, readBy: ['relay'] }),

  // Chat
  Chats: json({
    default: [
      { 'ChatGPT Next Web': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
      { 'Lobe Chat': 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
    ],
    shape: shapes.chats,
    readBy: ['console'],
    status: 'chats',
  }),

  // Pricing and groups
  ModelPrice: json({ default: DEFAULT_MODEL_PRICE, shape: shapes.numberMap, readBy: ['pricing', 'channels'] }),
  ModelRatio: json({ default: DEFAULT_MODEL_RATIO, shape: shapes.numberMap, readBy: ['pricing', 'channels'] }),
  CompletionRatio: json({ default: DEFAULT_COMPLETION_RATIO, shape: shapes.numberMap, readBy: ['pricing'] }),
  CacheRatio: json({ default: DEFAULT_CACHE_RATIO, shape: shapes.numberMap, readBy: ['pricing'] }),
  /** Prompt tokens written to the provider's cache, as a multiple of the input price. */
  CreateCacheRatio: json({ default: DEFAULT_CREATE_CACHE_RATIO, shape: shapes.numberMap, readBy: ['pricing'] }),
  /** Realtime audio input tokens, as a multiple of the model's text input price (unlisted models: 1). */
  AudioRatio: json({ default: DEFAULT_AUDIO_RATIO, shape: shapes.numberMap, readBy: ['pricing'] }),
  /** Realtime audio output tokens, as a multiple of the audio input price (unlisted models: the model's CompletionRatio). */
  AudioCompletionRatio: json({ default: DEFAULT_AUDIO_COMPLETION_RATIO, shape: shapes.numberMap, readBy: ['pricing'] }),
  /** USD per image by model, size and quality; a model listed here is billed per image (n × price), not by ModelPrice. */
  ImagePrices: json({ default: {}, shape: shapes.imagePrices, readBy: ['pricing', 'relay'] }),
  /** USD per second of audio by model: input (transcriptions, translations) and output (speech). */
  AudioPrices: json({ default: {}, shape: shapes.audioPrices, readBy: ['pricing', 'relay'] }),
  /** USD per second of video by model and resolution. Shown on the pricing page; no relay serves video yet. */
  VideoPrices: json({ default: {}, shape: shapes.videoPrices, readBy: ['pricing'], waitsFor: 'a video generation relay' }),
  /** USD per call by task platform (midjourney, suno) and action; an action listed here is billed from it, not by ModelPrice. */
  TaskActionPrices: json({ default: {}, shape: shapes.taskActionPrices, readBy: ['pricing', 'tasks'] }),
  GroupRatio: json({ default: { default: 1, vip: 1, svip: 1 }, shape: shapes.numberMap, readBy: ['pricing', 'users', 'scim'] }),
  UserUsableGroups: json({ default: { default: '默认分组', vip: 'vip分组' }, shape: shapes.stringMap, readBy: ['users', 'tokens', 'relay'] }),
  GroupGroupRatio: json({ default: {}, shape: shapes.numberMapByGroup, readBy: ['pricing'] }),
  DefaultUseAutoGroup: bool({ default: false, readBy: ['tokens', 'relay', 'console'], status: 'default_use_auto_group' }),
  AutoGroups: json({ default: ['default'], shape: shapes.stringList, readBy: ['relay'] }),
  /** Model → fallback models tried in order once every channel of the model failed (5xx, 429, timeouts); a token's own list replaces it. */
  ModelFallbacks: json({ default: {}, shape: shapes.modelFallbacks, readBy: ['relay'] }),
  /** Where ratio sync (/api/ratio_sync) reads prices: other gateways and published price lists. */
  RatioSyncSources: json({ default: [], shape: shapes.ratioSyncSources, ...ROOT, readBy: ['pricing'] }),

  /** The IANA zone of the day, week (from Monday) and month budget windows of tokens and users. */
  BudgetTimeZone: str({ default: 'UTC', readBy: ['relay', 'tokens', 'users'] }),

  // Rate limits (per user, on model requests)
  ModelRequestRateLimitEnabled: bool({ default: false, readBy: ['relay'] }),
  /** Requests per window, failed ones included; 0 or -1 = unlimited. */
  ModelRequestRateLimitCount: int({ default: -1, min: -1, max: 100_000_000, readBy: ['relay'] }),
  ModelRequestRateLimitSuccessCount: int({ default: 1000, min: 1, max: 100_000_000, readBy: ['relay'] }),
  ModelRequestRateLimitDurationMinutes: int({ default: 1, min: 0, max: 1440, readBy: ['relay'] }),
  /** Per-group overrides: {"group": [count, successCount]}. */
  ModelRequestRateLimitGroup: json({ default: {}, shape: shapes.rateLimitByGroup, readBy: ['relay'] }),

  // Model-specific
  'gemini.safety_settings': json({
    default: { default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' },
    shape: shapes.stringMap,
    readBy: ['relay'],
  }),
  'gemini.version_settings': json({ default: { default: 'v1beta' }, shape: shapes.stringMap, readBy: ['relay'] }),
  'claude.model_headers_settings': json({ default: {}, shape: shapes.headersByModel, readBy: ['relay'] }),
  'claude.thinking_adapter_enabled': bool({ default: true, readBy: ['relay'] }),
  'claude.default_max_tokens': json({
    default: { default: 8192, 'claude-3-haiku-20240307': 4096, 'claude-3-opus-20240229': 4096 },
    shape: shapes.intMap,
    readBy: ['relay'],
  }),
  'claude.thinking_adapter_budget_tokens_percentage': num({ default: 0.8, min: 0.1, max: 1, readBy: ['relay'] }),
  /** The client's request body goes upstream exactly as sent: no conversion, model mapping, override or system prompt (new-api's semantics). */
  'global.pass_through_request_enabled': bool({ default: false, readBy: ['relay'] }),

  // Login and registration (system tab)
  TwoFactorRequirement: oneOf({ default: 'off', values: ['off', 'admins', 'everyone'], ...ROOT, readBy: ['auth', 'console'], status: 'two_factor_requirement' }),
  PasswordLoginEnabled: bool({ default: true, ...ROOT, readBy: ['auth', 'console'], status: 'password_login_enabled' }),
  PasswordRegisterEnabled: bool({ default: true, ...ROOT, readBy: ['auth', 'console'], status: 'password_register_enabled' }),
  EmailVerificationEnabled: bool({ default: false, ...ROOT, readBy: ['auth', 'console'], status: 'email_verification' }),
  RegisterEnabled: bool({ default: true, ...ROOT, readBy: ['auth', 'console'], status: 'register_enabled' }),
  EmailDomainRestrictionEnabled: bool({ default: false, ...ROOT, readBy: ['mail'] }),
  EmailAliasRestrictionEnabled: bool({ default: false, ...ROOT, readBy: ['mail'] }),
  EmailDomainWhitelist: list({
    default: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
    ...ROOT,
    readBy: ['mail'],
  }),

  // Mail
  SMTPServer: str({ ...ROOT, readBy: ['mail'] }),
  SMTPPort: int({ default: 587, min: 1, max: 65535, ...ROOT, readBy: ['mail'] }),
  SMTPAccount: str({ ...ROOT, readBy: ['mail'] }),
  SMTPFrom: str({ ...ROOT, readBy: ['mail'] }),
  SMTPToken: str({ ...SECRET, readBy: ['mail'] }),
  SMTPSSLEnabled: bool({ default: false, ...ROOT, readBy: ['mail'] }),

  // Server
  ServerAddress: url({ ...ROOT, readBy: ['console', 'payment', 'oauth', 'mail', 'scim', 'auth'], status: 'server_address' }),
  /** The gateway's own fetches (images to inline, quota-alert webhooks, balances) go through this worker when set. */
  WorkerUrl: url({ ...ROOT, readBy: ['outbound'] }),
  WorkerValidKey: str({ ...SECRET, readBy: ['outbound'] }),
  /** Outbound requests (relay, probes, model lists) may reach loopback and private networks: Ollama on localhost, a LAN. */
  'fetch_setting.allow_private_ip': bool({ default: false, ...ROOT, readBy: ['outbound'] }),

  // Payment
  PayAddress: url({ ...ROOT, readBy: ['payment'] }),
  EpayId: str({ ...ROOT, readBy: ['payment'] }),
  EpayKey: str({ ...SECRET, readBy: ['payment'] }),
  CustomCallbackAddress: url({ ...ROOT, readBy: ['payment'] }),
  Price: num({ default: 7.3, min: 0, max: 1_000_000, ...ROOT, readBy: ['payment', 'console'], status: 'price' }),
  MinTopUp: int({ default: 1, min: 1, max: 1_000_000_000, ...ROOT, readBy: ['payment', 'console'], status: 'min_topup' }),
  TopupGroupRatio: json({ default: { default: 1, vip: 1, svip: 1 }, shape: shapes.numberMap, ...ROOT, readBy: ['payment'] }),
  StripeApiSecret: str({ ...SECRET, readBy: ['payment'] }),
  StripeWebhookSecret: str({ ...SECRET, readBy: ['payment'] }),
  /** US dollars charged through Stripe per unit of top-up. */
  StripeUnitPrice: num({ default: 8, min: 0.01, max: 1_000_000, ...ROOT, readBy: ['payment'] }),
  PayMethods: json({
    default: [
      { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'alipay' },
      { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wxpay' },
    ],
    shape: shapes.payMethods,
    ...ROOT,
    readBy: ['payment', 'console'],
    status: 'pay_methods',
  }),

  // Third-party sign-in
  GitHubOAuthEnabled: bool({ default: false, ...ROOT, readBy: ['oauth', 'console'], status: 'github_oauth' }),
  GitHubClientId: str({ ...ROOT, readBy: ['oauth', 'console'], status: 'github_client_id' }),
  GitHubClientSecret: str({ ...SECRET, readBy: ['oauth'] }),
  'oidc.enabled': bool({ default: false, ...ROOT, readBy: ['oauth', 'console'], status: 'oidc_enabled' }),
  'oidc.client_id': str({ ...ROOT, readBy: ['oauth', 'console'], status: 'oidc_client_id' }),
  'oidc.client_secret': str({ ...SECRET, readBy: ['oauth'] }),
  'oidc.well_known': url({ ...ROOT, readBy: ['oauth'] }),
  'oidc.authorization_endpoint': url({ ...ROOT, readBy: ['oauth', 'console'], status: 'oidc_authorization_endpoint' }),
  'oidc.token_endpoint': url({ ...ROOT, readBy: ['oauth'] }),
  'oidc.user_info_endpoint': url({ ...ROOT, readBy: ['oauth'] }),
  LinuxDOOAuthEnabled: bool({ default: false, ...ROOT, readBy: ['oauth', 'console'], status: 'linuxdo_oauth' }),
  LinuxDOClientId: str({ ...ROOT, readBy: ['oauth', 'console'], status: 'linuxdo_client_id' }),
  LinuxDOClientSecret: str({ ...SECRET, readBy: ['oauth'] }),
  WeChatAuthEnabled: bool({ default: false, ...ROOT, readBy: ['oauth', 'console'], status: 'wechat_login' }),
  WeChatServerAddress: url({ ...ROOT, readBy: ['oauth'] }),
  WeChatServerToken: str({ ...SECRET, readBy: ['oauth'] }),
  WeChatAccountQRCodeImageURL: url({ ...ROOT, readBy: ['console'], status: 'wechat_qrcode' }),
  TelegramOAuthEnabled: bool({ default: false, ...ROOT, readBy: ['oauth', 'console'], status: 'telegram_oauth' }),
  TelegramBotToken: str({ ...SECRET, readBy: ['oauth'] }),
  TelegramBotName: str({ ...ROOT, readBy: ['oauth', 'console'], status: 'telegram_bot_name' }),
  // SAML 2.0 sign-in (system tab). The IdP's entity id, SSO address and certificates come from its metadata.
  'saml.enabled': bool({ default: false, ...ROOT, readBy: ['saml', 'console'], status: 'saml_enabled' }),
  /** Where the IdP publishes its metadata; fetched through the outbound guard. Takes precedence over the XML below. */
  'saml.idp_metadata_url': url({ ...ROOT, readBy: ['saml'] }),
  /** The IdP's metadata document pasted in, for an IdP whose metadata URL the gateway cannot reach. */
  'saml.idp_metadata_xml': text({ ...ROOT, readBy: ['saml'] }),
  /** The attribute whose value names a new account; empty: the NameID. */
  'saml.username_attribute': str({ ...ROOT, readBy: ['saml'] }),
  'saml.email_attribute': str({ default: 'email', ...ROOT, readBy: ['saml'] }),
  /** The attribute listing the user's IdP groups; empty: groups are not mapped. */
  'saml.group_attribute': str({ ...ROOT, readBy: ['saml'] }),
  /** {"IdP group": "gateway group"}: the first IdP group listed here sets the user's group at every sign-in. */
  'saml.group_mapping': json({ default: {}, shape: shapes.stringMap, ...ROOT, readBy: ['saml'] }),
  /** A first SAML sign-in whose email matches an existing account signs into that account (instead of creating one). */
  'saml.bind_by_email': bool({ default: false, ...ROOT, readBy: ['saml'] }),
  TurnstileCheckEnabled: bool({ default: false, ...ROOT, readBy: ['auth', 'console'], status: 'turnstile_check' }),
  TurnstileSiteKey: str({ ...ROOT, readBy: ['console'], status: 'turnstile_site_key' }),
  TurnstileSecretKey: str({ ...SECRET, readBy: ['auth'] }),

  // Branding and content (other tab)
  Notice: text({ readBy: ['system'] }),
  SystemName: str({ default: 'AI Gateway', readBy: ['console'], status: 'system_name' }),
  Logo: url({ readBy: ['console'], status: 'logo' }),
  Footer: text({ readBy: ['console'], status: 'footer_html' }),
  About: text({ readBy: ['system'] }),
  HomePageContent: text({ readBy: ['system'] }),
} satisfies Record<string, OptionDefinition<unknown>>;

/** Every setting's key; a typo does not compile. */
export type OptionKey = keyof typeof OPTION_DEFINITIONS;

/** What `options.get(key)` returns for a key. */
export type OptionValue<K extends OptionKey> = (typeof OPTION_DEFINITIONS)[K] extends OptionDefinition<infer T> ? T : never;

/** The full set of typed values, as readers see it. */
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

export const OPTION_KEYS = Object.keys(OPTION_DEFINITIONS) as OptionKey[];

export function isOptionKey(key: string): key is OptionKey {
  return Object.prototype.hasOwnProperty.call(OPTION_DEFINITIONS, key);
}

export function definitionOf(key: OptionKey): OptionDefinition<unknown> {
  return OPTION_DEFINITIONS[key];
}

/** Options the pricing reset puts back to the shipped defaults. */
export const PRICING_OPTION_KEYS = [
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'CacheRatio',
  'CreateCacheRatio',
  'AudioRatio',
  'AudioCompletionRatio',
  'ImagePrices',
  'AudioPrices',
  'VideoPrices',
  'TaskActionPrices',
] as const satisfies readonly OptionKey[];
