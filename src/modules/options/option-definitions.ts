import { DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from '../pricing/default-ratios';

/** How a value is checked and normalised on write. Every stored value is a string. */
export type OptionKind = 'bool' | 'int' | 'number' | 'string' | 'text' | 'url' | 'json' | 'enum';

export interface OptionDefinition {
  kind: OptionKind;
  default: string;
  min?: number;
  max?: number;
  /** Never sent back to the console; only whether it is set. */
  secret?: boolean;
  /** Only the super administrator may change it (the system tab). */
  rootOnly?: boolean;
  /** For kind 'json': the shape the parsed value must have. */
  shape?: (value: unknown) => boolean;
  /** For kind 'enum'. */
  values?: string[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonNegativeNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** JSON shapes, named for what they hold. */
export const shapes = {
  numberMap: (value: unknown) => isPlainObject(value) && Object.values(value).every(isNonNegativeNumber),
  stringMap: (value: unknown) => isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string'),
  numberMapByGroup: (value: unknown) =>
    isPlainObject(value) && Object.values(value).every((inner) => isPlainObject(inner) && Object.values(inner).every(isNonNegativeNumber)),
  stringList: (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string'),
  /** [{name, type, color?}] */
  payMethods: (value: unknown) =>
    Array.isArray(value) &&
    value.every((m) => isPlainObject(m) && typeof m.name === 'string' && typeof m.type === 'string' && (m.color === undefined || typeof m.color === 'string')),
  /** [{"Chat name": "https://…{key}…{address}"}] */
  chats: (value: unknown) => Array.isArray(value) && value.every((entry) => isPlainObject(entry) && Object.values(entry).every((v) => typeof v === 'string')),
  /** {"model": {"header-name": ["value", …]}} */
  headersByModel: (value: unknown) =>
    isPlainObject(value) &&
    Object.values(value).every((headers) => isPlainObject(headers) && Object.values(headers).every((list) => Array.isArray(list) && list.every((v) => typeof v === 'string'))),
  intMap: (value: unknown) => isPlainObject(value) && Object.values(value).every((v) => Number.isInteger(v) && (v as number) >= 0),
};

const bool = (value: boolean, extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'bool', default: String(value), ...extra });
const int = (value: number, min: number, extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'int', default: String(value), min, ...extra });
const num = (value: number, min: number, extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'number', default: String(value), min, ...extra });
const str = (value = '', extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'string', default: value, ...extra });
const text = (value = '', extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'text', default: value, ...extra });
const url = (value = '', extra: Partial<OptionDefinition> = {}): OptionDefinition => ({ kind: 'url', default: value, ...extra });
const json = (value: unknown, shape: (value: unknown) => boolean, extra: Partial<OptionDefinition> = {}): OptionDefinition => ({
  kind: 'json',
  default: JSON.stringify(value, null, 2),
  shape,
  ...extra,
});
const root = { rootOnly: true };
const secret = { rootOnly: true, secret: true };

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

/** Every option the console can read or write, with its default. Unknown keys are refused. */
export const OPTION_DEFINITIONS: Record<string, OptionDefinition> = {
  // General and quota
  TopUpLink: url(),
  'general_setting.docs_link': url(),
  QuotaPerUnit: num(500000, 1),
  RetryTimes: int(0, 0, { max: 10 }),
  USDExchangeRate: num(7.3, 0),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  SelfUseModeEnabled: bool(false),
  QuotaForNewUser: int(0, 0),
  PreConsumedQuota: int(500, 0),
  QuotaForInviter: int(0, 0),
  QuotaForInvitee: int(0, 0),
  QuotaRemindThreshold: int(1000, 0),
  StreamCacheQueueLength: int(0, 0),
  ChatLink: url(),
  ChatLink2: url(),

  // Drawing and tasks
  DrawingEnabled: bool(false),
  TaskEnabled: bool(false),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjModeClearEnabled: bool(true),
  MjActionCheckSuccessEnabled: bool(true),

  // Sensitive words
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(false),
  SensitiveWords: text(''),

  // Logs and dashboard
  LogConsumeEnabled: bool(true),
  DataExportEnabled: bool(false),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: { kind: 'enum', default: 'hour', values: ['hour', 'day', 'week'] },

  // Monitoring
  ChannelDisableThreshold: num(5, 0),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: text(DEFAULT_AUTOMATIC_DISABLE_KEYWORDS),

  // Chat
  Chats: json(
    [
      { 'ChatGPT Next Web': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
      { 'Lobe Chat': 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
    ],
    shapes.chats,
  ),

  // Pricing and groups
  ModelPrice: json(DEFAULT_MODEL_PRICE, shapes.numberMap),
  ModelRatio: json(DEFAULT_MODEL_RATIO, shapes.numberMap),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO, shapes.numberMap),
  CacheRatio: json(DEFAULT_CACHE_RATIO, shapes.numberMap),
  GroupRatio: json({ default: 1, vip: 1, svip: 1 }, shapes.numberMap),
  UserUsableGroups: json({ default: '默认分组', vip: 'vip分组' }, shapes.stringMap),
  GroupGroupRatio: json({}, shapes.numberMapByGroup),
  DefaultUseAutoGroup: bool(false),
  AutoGroups: json(['default'], shapes.stringList),

  // Rate limits
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(-1, 0),
  ModelRequestRateLimitSuccessCount: int(1000, 1),
  ModelRequestRateLimitDurationMinutes: int(1, 0),

  // Model-specific
  'gemini.safety_settings': json({ default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' }, shapes.stringMap),
  'gemini.version_settings': json({ default: 'v1beta' }, shapes.stringMap),
  'claude.model_headers_settings': json({}, shapes.headersByModel),
  'claude.thinking_adapter_enabled': bool(true),
  'claude.default_max_tokens': json({ default: 8192, 'claude-3-haiku-20240307': 4096, 'claude-3-opus-20240229': 4096 }, shapes.intMap),
  'claude.thinking_adapter_budget_tokens_percentage': num(0.8, 0.1, { max: 1 }),
  'global.pass_through_request_enabled': bool(false),

  // Login and registration (system tab)
  PasswordLoginEnabled: bool(true, root),
  PasswordRegisterEnabled: bool(true, root),
  EmailVerificationEnabled: bool(false, root),
  RegisterEnabled: bool(true, root),
  EmailDomainRestrictionEnabled: bool(false, root),
  EmailAliasRestrictionEnabled: bool(false, root),
  EmailDomainWhitelist: str('gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com', root),

  // Mail
  SMTPServer: str('', root),
  SMTPPort: int(587, 1, { max: 65535, ...root }),
  SMTPAccount: str('', root),
  SMTPFrom: str('', root),
  SMTPToken: str('', secret),
  SMTPSSLEnabled: bool(false, root),

  // Server
  ServerAddress: url('', root),
  WorkerUrl: url('', root),
  WorkerValidKey: str('', secret),

  // Payment
  PayAddress: url('', root),
  EpayId: str('', root),
  EpayKey: str('', secret),
  CustomCallbackAddress: url('', root),
  Price: num(7.3, 0, root),
  MinTopUp: int(1, 1, root),
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }, shapes.numberMap, root),
  PayMethods: json(
    [
      { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'alipay' },
      { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wxpay' },
    ],
    shapes.payMethods,
    root,
  ),

  // Third-party sign-in
  GitHubOAuthEnabled: bool(false, root),
  GitHubClientId: str('', root),
  GitHubClientSecret: str('', secret),
  'oidc.enabled': bool(false, root),
  'oidc.client_id': str('', root),
  'oidc.client_secret': str('', secret),
  'oidc.well_known': url('', root),
  'oidc.authorization_endpoint': url('', root),
  'oidc.token_endpoint': url('', root),
  'oidc.user_info_endpoint': url('', root),
  LinuxDOOAuthEnabled: bool(false, root),
  LinuxDOClientId: str('', root),
  LinuxDOClientSecret: str('', secret),
  WeChatAuthEnabled: bool(false, root),
  WeChatServerAddress: url('', root),
  WeChatServerToken: str('', secret),
  WeChatAccountQRCodeImageURL: url('', root),
  TelegramOAuthEnabled: bool(false, root),
  TelegramBotToken: str('', secret),
  TelegramBotName: str('', root),
  TurnstileCheckEnabled: bool(false, root),
  TurnstileSiteKey: str('', root),
  TurnstileSecretKey: str('', secret),

  // Branding and content (other tab)
  Notice: text(''),
  SystemName: str('AI Gateway'),
  Logo: url(''),
  Footer: text(''),
  About: text(''),
  HomePageContent: text(''),
};

export type OptionKey = keyof typeof OPTION_DEFINITIONS;

/** Options the pricing reset puts back to the shipped defaults. */
export const PRICING_OPTION_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio', 'CacheRatio'] as const;
