/**
 * The channel-type catalogue: every fact about each provider kind a channel can be, in one row
 * per type. The relay, the monitor, the balance job, the task relays and the console's channel
 * editor (which imports this file as `@shared/channel-types`) all read these rows; no other code
 * writes a bare type number. Data only: no imports, no functions beyond lookups.
 *
 * Numbers are new-api's, so a channel table imported from new-api or one-api keeps its meaning.
 */
export const CHANNEL_TYPE = {
  OPENAI: 1,
  MIDJOURNEY: 2,
  AZURE: 3,
  OLLAMA: 4,
  MIDJOURNEY_PLUS: 5,
  CUSTOM: 8,
  PALM: 11,
  ANTHROPIC: 14,
  BAIDU: 15,
  ZHIPU: 16,
  ALI: 17,
  XUNFEI: 18,
  AI360: 19,
  OPENROUTER: 20,
  AIPROXY: 21,
  FASTGPT: 22,
  TENCENT: 23,
  GEMINI: 24,
  MOONSHOT: 25,
  ZHIPU_V4: 26,
  PERPLEXITY: 27,
  LINGYIWANWU: 31,
  AWS: 33,
  COHERE: 34,
  MINIMAX: 35,
  SUNO: 36,
  DIFY: 37,
  JINA: 38,
  CLOUDFLARE: 39,
  SILICONFLOW: 40,
  VERTEX: 41,
  MISTRAL: 42,
  DEEPSEEK: 43,
  MOKAAI: 44,
  VOLCENGINE: 45,
  BAIDU_V2: 46,
  XINFERENCE: 47,
  XAI: 48,
  COZE: 49,
  REPLICATE: 56,
  GATEWAY: 60,
} as const;

/**
 * What the relay can do through a channel type. `realtime`: OpenAI's Realtime API over WebSocket
 * (/v1/realtime); `responses_websocket`: the upstream may serve Responses over WebSocket, which
 * the gateway tries first for a WebSocket client (an upstream that refuses the upgrade is then
 * reached over HTTP).
 */
export type ProviderCapability = 'chat' | 'embeddings' | 'images' | 'audio' | 'rerank' | 'responses' | 'realtime' | 'responses_websocket';

/**
 * How the gateway serves a type:
 * - `openai-compatible`: the shared OpenAI adaptor, configured by this row alone;
 * - `native`: an adaptor of its own in `relay/providers/<name>/`, listed in `providers/native.ts`;
 * - `midjourney`, `suno`: the task relays (`modules/tasks`);
 * - `retired`: the provider shut the API down; existing channels are kept and shown, never routed to, and no new one can be saved;
 * - `unserved`: a type new-api knows that this gateway cannot relay yet: treated as `retired`, without a reason.
 */
export type ServedBy = 'openai-compatible' | 'native' | 'midjourney' | 'suno' | 'retired' | 'unserved';

/** What a channel's `other` field means for a type (the console's `channels:fields.otherMeaning.<meaning>`). */
export type OtherFieldMeaning = 'region' | 'api_version' | 'model_version' | 'account_id' | 'app_id';

export interface OtherField {
  meaning: OtherFieldMeaning;
  /** Used when the field is empty. */
  default: string;
  /** The default is written into the channel when saved empty (Spark's version, as new-api does). */
  filledOnSave?: boolean;
  /** For OpenAI-compatible types: the request header that carries the value (Qianfan's `appid`). */
  header?: string;
  /** No channel of the type works without it (Cloudflare's account id is in every URL): a channel saved without it is refused. */
  required?: boolean;
}

/** One channel type and everything the gateway knows about it. */
export interface ChannelTypeRow {
  type: number;
  /** The provider's name, as the console lists it (spec part 1, section 3). */
  name: string;
  servedBy: ServedBy;
  /** How the key field is written, shown in the editor (e.g. `AK|SK|region`). */
  keyFormat: string;
  /** A translated explanation of the key beside its format (the console's `channels:editor.keyHints.<hint>`). */
  keyHint?: 'aws_credentials' | 'service_account_json' | 'api_key_secret_key' | 'zhipu_key' | 'spark_credentials' | 'tencent_credentials' | 'dify_app_key';
  /**
   * The key is one JSON document (a service-account key file, newlines and all), or a JSON
   * array of them for several keys, rather than one key per line.
   */
  keyIsJson?: boolean;
  /** Used when the channel has no base_url; empty when the channel must set one (self-hosted). */
  defaultBaseUrl: string;
  /** What the channel's `other` field holds for this type. */
  otherField?: OtherField;
  capabilities: readonly ProviderCapability[];
  /**
   * Model names that belong to the type, by prefix (case-insensitive): GET /api/models and the
   * editor's "fill in the type's models". Aggregators and self-hosted types have none.
   */
  modelPrefixes: readonly string[];
  /** OpenAI-compatible: honours `stream_options.include_usage`, so a stream ends with a usage chunk (else usage is counted locally). */
  streamUsage?: boolean;
  /**
   * OpenAI-compatible: the path under the base URL that OpenAI's `/v1` stands for
   * (`/api/v3` on Volcengine's Ark); `{other}` is replaced by the channel's `other` field. Default `/v1`.
   */
  apiPath?: string;
  /** The provider has a balance API (`monitoring/balance-queries.ts`), answering in this currency. */
  balance?: { currency: 'USD' | 'CNY' };
  /** Upstream statuses besides 401 that mean the key itself is broken (auto-disable): Gemini answers a revoked key with 403. */
  brokenKeyStatuses?: readonly number[];
  /**
   * OpenAI-compatible: model names (prefixes, case-insensitive) that answer only on the Responses
   * API, never on Chat Completions: chats for them are converted into Responses requests.
   */
  responsesOnlyModels?: readonly string[];
  /** Why the type cannot relay, for `retired` types (shown in the console). */
  retiredReason?: 'palm_retired';
  /**
   * A host of Claude that refuses `anthropic-beta` names it does not know (Bedrock, Vertex):
   * the client's names not listed here are dropped before the call, so a request from a client
   * that sends Anthropic's newest betas (Claude Code) is answered rather than refused with 400.
   * Absent: every name passes (Anthropic itself).
   */
  acceptedAnthropicBetas?: readonly string[];
}

const OPENAI_ALL: readonly ProviderCapability[] = ['chat', 'embeddings', 'images', 'audio', 'rerank', 'responses'];
const OPENAI_CHAT: readonly ProviderCapability[] = ['chat', 'embeddings'];
const CHAT: readonly ProviderCapability[] = ['chat'];

const OPENAI_MODELS = ['gpt-', 'chatgpt-', 'o1', 'o3', 'o4', 'dall-e', 'tts-', 'whisper', 'text-embedding-3', 'text-embedding-ada', 'text-moderation', 'omni-moderation'];
/** OpenAI's models served on the Responses API alone (Chat Completions answers them 404). */
const OPENAI_RESPONSES_ONLY_MODELS = ['o1-pro', 'o3-pro', 'o3-deep-research', 'o4-mini-deep-research', 'codex-mini', 'gpt-5-codex', 'gpt-5.1-codex', 'gpt-5-pro', 'computer-use-preview'];
const CLAUDE_MODELS = ['claude'];
/**
 * The anthropic-beta names Bedrock's Claude models take (its `anthropic_beta` field), from AWS's
 * model-parameters page: Claude Code's own (claude-code-20250219, advanced-tool-use-2025-11-20,
 * prompt-caching-scope-…, redact-thinking-…) are not among them, and Bedrock answers 400 "invalid beta flag".
 */
const BEDROCK_ANTHROPIC_BETAS = [
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
];
/**
 * The anthropic-beta names Claude on Vertex takes. Vertex answers 400 "Unexpected value(s) … for
 * the anthropic-beta header" for the rest (effort-2025-11-24, web-search-2025-03-05,
 * prompt-caching-scope-2026-01-05, redact-thinking-2026-02-12 among those Claude Code sends).
 */
const VERTEX_ANTHROPIC_BETAS = [
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'tool-search-tool-2025-10-19',
];
const GEMINI_MODELS = ['gemini', 'gemma'];
const MIDJOURNEY_MODELS = ['mj_', 'swap_face'];
const ZHIPU_MODELS = ['glm', 'chatglm', 'cogview', 'embedding-2', 'embedding-3'];

export const CHANNEL_TYPE_ROWS: readonly ChannelTypeRow[] = [
  {
    type: CHANNEL_TYPE.OPENAI,
    name: 'OpenAI',
    servedBy: 'openai-compatible',
    keyFormat: 'sk-…',
    defaultBaseUrl: 'https://api.openai.com',
    capabilities: [...OPENAI_ALL, 'realtime', 'responses_websocket'],
    modelPrefixes: OPENAI_MODELS,
    streamUsage: true,
    balance: { currency: 'USD' },
    responsesOnlyModels: OPENAI_RESPONSES_ONLY_MODELS,
  },
  { type: CHANNEL_TYPE.MIDJOURNEY, name: 'Midjourney Proxy', servedBy: 'midjourney', keyFormat: 'the proxy’s mj-api-secret', defaultBaseUrl: '', capabilities: [], modelPrefixes: MIDJOURNEY_MODELS },
  {
    type: CHANNEL_TYPE.AZURE,
    name: 'Azure OpenAI',
    servedBy: 'native',
    keyFormat: 'Azure API key',
    defaultBaseUrl: '',
    capabilities: [...OPENAI_ALL, 'realtime'],
    modelPrefixes: OPENAI_MODELS,
    otherField: { meaning: 'api_version', default: '2024-10-21' },
    responsesOnlyModels: OPENAI_RESPONSES_ONLY_MODELS,
  },
  { type: CHANNEL_TYPE.OLLAMA, name: 'Ollama', servedBy: 'openai-compatible', keyFormat: 'any text (Ollama ignores it)', defaultBaseUrl: 'http://localhost:11434', capabilities: OPENAI_CHAT, modelPrefixes: [], streamUsage: true },
  { type: CHANNEL_TYPE.MIDJOURNEY_PLUS, name: 'Midjourney Proxy Plus', servedBy: 'midjourney', keyFormat: 'the proxy’s mj-api-secret', defaultBaseUrl: '', capabilities: [], modelPrefixes: MIDJOURNEY_MODELS },
  { type: CHANNEL_TYPE.CUSTOM, name: 'Custom', servedBy: 'openai-compatible', keyFormat: 'the upstream’s API key', defaultBaseUrl: '', capabilities: OPENAI_ALL, modelPrefixes: [], streamUsage: true, balance: { currency: 'USD' } },
  { type: CHANNEL_TYPE.PALM, name: 'PaLM2', servedBy: 'retired', keyFormat: 'API key', defaultBaseUrl: 'https://generativelanguage.googleapis.com', capabilities: [], modelPrefixes: ['chat-bison', 'text-bison'], retiredReason: 'palm_retired' },
  { type: CHANNEL_TYPE.ANTHROPIC, name: 'Anthropic Claude', servedBy: 'native', keyFormat: 'sk-ant-…', defaultBaseUrl: 'https://api.anthropic.com', capabilities: CHAT, modelPrefixes: CLAUDE_MODELS },
  {
    type: CHANNEL_TYPE.BAIDU,
    name: 'Baidu Wenxin',
    servedBy: 'native',
    keyFormat: 'API Key|Secret Key',
    keyHint: 'api_key_secret_key',
    defaultBaseUrl: 'https://aip.baidubce.com',
    capabilities: OPENAI_CHAT,
    modelPrefixes: ['ernie', 'embedding-v1', 'bge-large', 'tao-8k'],
  },
  { type: CHANNEL_TYPE.ZHIPU, name: 'Zhipu', servedBy: 'native', keyFormat: 'id.secret', keyHint: 'zhipu_key', defaultBaseUrl: 'https://open.bigmodel.cn', capabilities: CHAT, modelPrefixes: ZHIPU_MODELS },
  { type: CHANNEL_TYPE.ALI, name: 'Alibaba Qwen', servedBy: 'native', keyFormat: 'sk-…', defaultBaseUrl: 'https://dashscope.aliyuncs.com', capabilities: OPENAI_CHAT, modelPrefixes: ['qwen', 'qwq', 'text-embedding-v'] },
  {
    type: CHANNEL_TYPE.XUNFEI,
    name: 'iFlytek Spark',
    servedBy: 'native',
    keyFormat: 'APPID|APISecret|APIKey',
    keyHint: 'spark_credentials',
    // An https base URL: the adaptor opens its WebSocket as wss:// on the same host (the channel editor takes http(s) URLs).
    defaultBaseUrl: 'https://spark-api.xf-yun.com',
    capabilities: CHAT,
    modelPrefixes: ['sparkdesk', 'spark'],
    otherField: { meaning: 'model_version', default: 'v2.1', filledOnSave: true },
  },
  { type: CHANNEL_TYPE.AI360, name: '360', servedBy: 'openai-compatible', keyFormat: 'API key', defaultBaseUrl: 'https://ai.360.cn', capabilities: OPENAI_CHAT, modelPrefixes: ['360'], streamUsage: false },
  { type: CHANNEL_TYPE.OPENROUTER, name: 'OpenRouter', servedBy: 'openai-compatible', keyFormat: 'sk-or-…', defaultBaseUrl: 'https://openrouter.ai/api', capabilities: OPENAI_CHAT, modelPrefixes: [], streamUsage: true, balance: { currency: 'USD' } },
  { type: CHANNEL_TYPE.AIPROXY, name: 'AI Proxy', servedBy: 'openai-compatible', keyFormat: 'API key', defaultBaseUrl: 'https://api.aiproxy.io', capabilities: OPENAI_CHAT, modelPrefixes: [], streamUsage: true, balance: { currency: 'USD' } },
  { type: CHANNEL_TYPE.FASTGPT, name: 'FastGPT', servedBy: 'native', keyFormat: 'fastgpt-… (the app’s API key)', defaultBaseUrl: 'https://api.fastgpt.in/api', capabilities: CHAT, modelPrefixes: [] },
  {
    type: CHANNEL_TYPE.TENCENT,
    name: 'Tencent Hunyuan',
    servedBy: 'native',
    keyFormat: 'AppId|SecretId|SecretKey',
    keyHint: 'tencent_credentials',
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    capabilities: OPENAI_CHAT,
    modelPrefixes: ['hunyuan'],
  },
  {
    type: CHANNEL_TYPE.GEMINI,
    name: 'Gemini',
    servedBy: 'native',
    keyFormat: 'AIza… (Google AI Studio key)',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    capabilities: OPENAI_CHAT,
    modelPrefixes: GEMINI_MODELS,
    brokenKeyStatuses: [403],
  },
  { type: CHANNEL_TYPE.MOONSHOT, name: 'Moonshot', servedBy: 'openai-compatible', keyFormat: 'sk-…', defaultBaseUrl: 'https://api.moonshot.cn', capabilities: OPENAI_CHAT, modelPrefixes: ['moonshot', 'kimi'], streamUsage: false, balance: { currency: 'CNY' } },
  {
    type: CHANNEL_TYPE.ZHIPU_V4,
    name: 'Zhipu v4',
    servedBy: 'native',
    keyFormat: 'id.secret (or the API key as it is)',
    keyHint: 'zhipu_key',
    defaultBaseUrl: 'https://open.bigmodel.cn',
    capabilities: OPENAI_CHAT,
    modelPrefixes: ZHIPU_MODELS,
  },
  // Perplexity's API has no /v1 (POST /chat/completions). Its streams carry usage in their last chunk unasked, so no stream_options is sent.
  { type: CHANNEL_TYPE.PERPLEXITY, name: 'Perplexity', servedBy: 'openai-compatible', keyFormat: 'pplx-…', defaultBaseUrl: 'https://api.perplexity.ai', capabilities: CHAT, modelPrefixes: ['sonar', 'r1-1776'], streamUsage: false, apiPath: '' },
  { type: CHANNEL_TYPE.LINGYIWANWU, name: '01.AI', servedBy: 'openai-compatible', keyFormat: 'API key', defaultBaseUrl: 'https://api.lingyiwanwu.com', capabilities: OPENAI_CHAT, modelPrefixes: ['yi-'], streamUsage: false },
  {
    type: CHANNEL_TYPE.AWS,
    name: 'AWS Claude',
    servedBy: 'native',
    keyFormat: 'AK|SK|region',
    keyHint: 'aws_credentials',
    defaultBaseUrl: '',
    capabilities: CHAT,
    modelPrefixes: CLAUDE_MODELS,
    acceptedAnthropicBetas: BEDROCK_ANTHROPIC_BETAS,
  },
  {
    type: CHANNEL_TYPE.COHERE,
    name: 'Cohere',
    servedBy: 'native',
    keyFormat: 'API key',
    defaultBaseUrl: 'https://api.cohere.com',
    capabilities: ['chat', 'embeddings', 'rerank'],
    modelPrefixes: ['command', 'embed-', 'rerank-', 'c4ai-'],
    // 402: the account reached its billing limit.
    brokenKeyStatuses: [402],
  },
  { type: CHANNEL_TYPE.MINIMAX, name: 'MiniMax', servedBy: 'native', keyFormat: 'API key', defaultBaseUrl: 'https://api.minimaxi.com', capabilities: OPENAI_CHAT, modelPrefixes: ['abab', 'minimax', 'embo-'] },
  { type: CHANNEL_TYPE.SUNO, name: 'Suno', servedBy: 'suno', keyFormat: 'the Suno API server’s key', defaultBaseUrl: '', capabilities: [], modelPrefixes: ['suno_'] },
  { type: CHANNEL_TYPE.DIFY, name: 'Dify', servedBy: 'native', keyFormat: 'app-… (the app’s API key)', keyHint: 'dify_app_key', defaultBaseUrl: 'https://api.dify.ai', capabilities: CHAT, modelPrefixes: [] },
  // 402: the account's token balance is spent.
  { type: CHANNEL_TYPE.JINA, name: 'Jina', servedBy: 'native', keyFormat: 'jina_…', defaultBaseUrl: 'https://api.jina.ai', capabilities: ['embeddings', 'rerank'], modelPrefixes: ['jina'], brokenKeyStatuses: [402] },
  {
    type: CHANNEL_TYPE.CLOUDFLARE,
    name: 'Cloudflare',
    servedBy: 'openai-compatible',
    keyFormat: 'API token',
    defaultBaseUrl: 'https://api.cloudflare.com',
    // Workers AI's OpenAI-compatible API: chat/completions, embeddings and responses under /ai/v1 of the account.
    capabilities: ['chat', 'embeddings', 'responses'],
    modelPrefixes: ['@cf/', '@hf/'],
    streamUsage: true,
    apiPath: '/client/v4/accounts/{other}/ai/v1',
    otherField: { meaning: 'account_id', default: '', required: true },
    // Cloudflare answers a token that is invalid or lacks Workers AI on the account with 403 (code 10000, "Authentication error").
    brokenKeyStatuses: [403],
  },
  { type: CHANNEL_TYPE.SILICONFLOW, name: 'SiliconCloud', servedBy: 'openai-compatible', keyFormat: 'sk-…', defaultBaseUrl: 'https://api.siliconflow.cn', capabilities: OPENAI_ALL, modelPrefixes: [], streamUsage: true, balance: { currency: 'CNY' } },
  {
    type: CHANNEL_TYPE.VERTEX,
    name: 'Vertex AI',
    servedBy: 'native',
    keyFormat: '{"type": "service_account", "project_id": …, "private_key": …, "client_email": …}',
    keyHint: 'service_account_json',
    keyIsJson: true,
    defaultBaseUrl: '',
    capabilities: CHAT,
    modelPrefixes: [...CLAUDE_MODELS, ...GEMINI_MODELS],
    otherField: { meaning: 'region', default: 'us-central1' },
    acceptedAnthropicBetas: VERTEX_ANTHROPIC_BETAS,
  },
  { type: CHANNEL_TYPE.MISTRAL, name: 'Mistral', servedBy: 'openai-compatible', keyFormat: 'API key', defaultBaseUrl: 'https://api.mistral.ai', capabilities: OPENAI_CHAT, modelPrefixes: ['mistral', 'open-mistral', 'codestral', 'pixtral', 'ministral'], streamUsage: false },
  { type: CHANNEL_TYPE.DEEPSEEK, name: 'DeepSeek', servedBy: 'openai-compatible', keyFormat: 'sk-…', defaultBaseUrl: 'https://api.deepseek.com', capabilities: OPENAI_CHAT, modelPrefixes: ['deepseek'], streamUsage: true, balance: { currency: 'CNY' } },
  // M3E is an open model without a hosted API: the channel points at the operator's own server.
  { type: CHANNEL_TYPE.MOKAAI, name: 'MokaAI M3E', servedBy: 'native', keyFormat: 'the M3E server’s key (sk-…)', defaultBaseUrl: '', capabilities: ['embeddings'], modelPrefixes: ['m3e'] },
  // Ark: an endpoint id (ep-…) is given as the model, usually through the channel's model mapping.
  {
    type: CHANNEL_TYPE.VOLCENGINE,
    name: 'Volcengine Doubao',
    servedBy: 'openai-compatible',
    keyFormat: 'Ark API key',
    defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
    capabilities: ['chat', 'embeddings', 'images', 'responses'],
    modelPrefixes: ['doubao', 'ep-'],
    streamUsage: true,
    apiPath: '/api/v3',
  },
  {
    type: CHANNEL_TYPE.BAIDU_V2,
    name: 'Baidu Qianfan v2',
    servedBy: 'openai-compatible',
    keyFormat: 'bce-v3/… (Qianfan API key)',
    defaultBaseUrl: 'https://qianfan.baidubce.com',
    capabilities: OPENAI_CHAT,
    modelPrefixes: ['ernie'],
    streamUsage: true,
    apiPath: '/v2',
    otherField: { meaning: 'app_id', default: '', header: 'appid' },
  },
  { type: CHANNEL_TYPE.XINFERENCE, name: 'Xinference', servedBy: 'openai-compatible', keyFormat: 'any text', defaultBaseUrl: '', capabilities: ['chat', 'embeddings', 'rerank'], modelPrefixes: [], streamUsage: false },
  { type: CHANNEL_TYPE.XAI, name: 'xAI', servedBy: 'openai-compatible', keyFormat: 'xai-…', defaultBaseUrl: 'https://api.x.ai', capabilities: ['chat', 'images', 'responses'], modelPrefixes: ['grok'], streamUsage: true },
  { type: CHANNEL_TYPE.COZE, name: 'Coze', servedBy: 'native', keyFormat: 'pat_… (personal access token); the model name is the bot id', defaultBaseUrl: 'https://api.coze.cn', capabilities: CHAT, modelPrefixes: [] },
  { type: CHANNEL_TYPE.REPLICATE, name: 'Replicate', servedBy: 'native', keyFormat: 'r8_…', defaultBaseUrl: 'https://api.replicate.com', capabilities: ['chat', 'images'], modelPrefixes: [] },
  { type: CHANNEL_TYPE.GATEWAY, name: 'Another gateway (new-api, one-api)', servedBy: 'openai-compatible', keyFormat: 'sk-… (a token of that gateway)', defaultBaseUrl: '', capabilities: OPENAI_ALL, modelPrefixes: [], streamUsage: true, balance: { currency: 'USD' } },
];

const ROWS_BY_TYPE: ReadonlyMap<number, ChannelTypeRow> = new Map(CHANNEL_TYPE_ROWS.map((row) => [row.type, row]));

/** The catalogue row of a type, or undefined for a number no row has. */
export function channelTypeRow(type: number): ChannelTypeRow | undefined {
  return ROWS_BY_TYPE.get(type);
}

/** Numeric id → provider name, for every type in the catalogue. */
export const CHANNEL_TYPES: Readonly<Record<number, string>> = Object.fromEntries(CHANNEL_TYPE_ROWS.map((row) => [row.type, row.name]));

/** Every type in the catalogue, retired ones included (existing channels of them load and show). */
export const CHANNEL_TYPE_IDS: readonly number[] = CHANNEL_TYPE_ROWS.map((row) => row.type);

/** The types a channel may be saved as: every one something serves. */
export const SAVABLE_CHANNEL_TYPE_IDS: readonly number[] = CHANNEL_TYPE_ROWS.filter((row) => isRelayable(row)).map((row) => row.type);

/** Whether channels of this row's type can answer anything (retired and unserved types cannot). */
export function isRelayable(row: ChannelTypeRow | undefined): boolean {
  return row !== undefined && row.servedBy !== 'retired' && row.servedBy !== 'unserved';
}

/** The types the relay serves, by how (the task relays pick their channels by this). */
export function channelTypesServedBy(servedBy: ServedBy): number[] {
  return CHANNEL_TYPE_ROWS.filter((row) => row.servedBy === servedBy).map((row) => row.type);
}

/** Whether a channel type's host takes an anthropic-beta name (`acceptedAnthropicBetas`; every name where the row sets none). */
export function acceptsAnthropicBeta(type: number, name: string): boolean {
  const accepted = channelTypeRow(type)?.acceptedAnthropicBetas;
  return accepted === undefined || accepted.includes(name);
}

/** What a channel's `other` field holds when it is empty, for types that give it a meaning. */
export function defaultOther(type: number): string {
  return channelTypeRow(type)?.otherField?.default ?? '';
}

/** Where a channel type's API lives when the channel sets no base_url. */
export function defaultBaseUrl(type: number): string {
  return channelTypeRow(type)?.defaultBaseUrl ?? '';
}

/**
 * The keys a channel's key field holds: one per line, or for JSON-document keys the document
 * (or each document of a JSON array, or one compact document per line), so a pretty-printed
 * key file stays one key.
 */
export function channelKeys(type: number, raw: string): string[] {
  if (!channelTypeRow(type)?.keyIsJson) return nonBlankLines(raw);
  const text = raw.trim();
  if (!text) return [];
  try {
    const documents: unknown = JSON.parse(text);
    return Array.isArray(documents) ? documents.map((document) => JSON.stringify(document)) : [text];
  } catch {
    // Not one document: several, one per line, or else a malformed key the adaptor reports when it is used.
  }
  const lines = nonBlankLines(text);
  return lines.length > 1 && lines.every(isJsonObject) ? lines : [text];
}

function nonBlankLines(raw: string): string[] {
  return raw
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
