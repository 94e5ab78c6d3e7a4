/** The provider kinds a channel can be (spec part 1, section 3): numeric id → provider name. */
export const CHANNEL_TYPES: Readonly<Record<number, string>> = {
  1: 'OpenAI',
  2: 'Midjourney Proxy',
  3: 'Azure OpenAI',
  4: 'Ollama',
  5: 'Midjourney Proxy Plus',
  8: 'Custom',
  11: 'PaLM2',
  14: 'Anthropic Claude',
  15: 'Baidu Wenxin',
  16: 'Zhipu',
  17: 'Alibaba Qwen',
  18: 'iFlytek Spark',
  19: '360',
  20: 'OpenRouter',
  21: 'AI Proxy',
  22: 'FastGPT',
  23: 'Tencent Hunyuan',
  24: 'Gemini',
  25: 'Moonshot',
  26: 'Zhipu',
  31: '01.AI',
  33: 'AWS Claude',
  34: 'Cohere',
  35: 'MiniMax',
  36: 'Suno',
  37: 'Dify',
  38: 'Jina',
  39: 'Cloudflare',
  40: 'SiliconCloud',
  41: 'Vertex AI',
  42: 'Mistral',
  43: 'DeepSeek',
  44: 'MokaAI M3E',
  45: 'Volcengine Doubao',
  46: 'Baidu Wenxin',
  47: 'Xinference',
};

/** What the relay can do through a channel type. */
export type ProviderCapability = 'chat' | 'embeddings' | 'images' | 'audio' | 'rerank' | 'responses';

/**
 * Provider metadata for the channel types the relay speaks to, shared by the relay and the
 * console's channel editor: how the key is written, where the API lives by default, what the
 * relay can do through it, and the wire format it speaks (when not OpenAI's).
 */
export interface ChannelProviderInfo {
  /** How the key field is written, shown in the editor (e.g. `AK|SK|region`). */
  keyFormat: string;
  /** Used when the channel has no base_url; empty when the channel must set one (self-hosted). */
  defaultBaseUrl: string;
  capabilities: readonly ProviderCapability[];
  /** The native wire format, when the provider does not speak OpenAI's. */
  nativeFormat?: 'claude' | 'gemini';
  /** A translated explanation of the key beside its format (the console's `channels:editor.keyHints.<hint>`). */
  keyHint?: 'aws_credentials' | 'service_account_json';
  /**
   * The key is one JSON document (a service-account key file, newlines and all), or a JSON
   * array of them for several keys, rather than one key per line.
   */
  keyIsJson?: boolean;
  /** What the channel's `other` field holds for this type, and the value used when it is empty. */
  otherField?: { meaning: 'region' | 'api_version'; default: string };
}

const OPENAI_ALL: readonly ProviderCapability[] = ['chat', 'embeddings', 'images', 'audio', 'rerank', 'responses'];
const OPENAI_CHAT: readonly ProviderCapability[] = ['chat', 'embeddings'];

export const CHANNEL_PROVIDERS: Readonly<Partial<Record<number, ChannelProviderInfo>>> = {
  1: { keyFormat: 'sk-…', defaultBaseUrl: 'https://api.openai.com', capabilities: OPENAI_ALL },
  3: { keyFormat: 'Azure API key', defaultBaseUrl: '', capabilities: OPENAI_ALL, otherField: { meaning: 'api_version', default: '2024-10-21' } },
  4: { keyFormat: 'any text (Ollama ignores it)', defaultBaseUrl: 'http://localhost:11434', capabilities: OPENAI_CHAT },
  8: { keyFormat: 'the upstream’s API key', defaultBaseUrl: '', capabilities: OPENAI_ALL },
  14: { keyFormat: 'sk-ant-…', defaultBaseUrl: 'https://api.anthropic.com', capabilities: ['chat'], nativeFormat: 'claude' },
  19: { keyFormat: 'API key', defaultBaseUrl: 'https://ai.360.cn', capabilities: OPENAI_CHAT },
  20: { keyFormat: 'sk-or-…', defaultBaseUrl: 'https://openrouter.ai/api', capabilities: OPENAI_CHAT },
  21: { keyFormat: 'API key', defaultBaseUrl: 'https://api.aiproxy.io', capabilities: OPENAI_CHAT },
  24: { keyFormat: 'AIza… (Google AI Studio key)', defaultBaseUrl: 'https://generativelanguage.googleapis.com', capabilities: ['chat', 'embeddings'], nativeFormat: 'gemini' },
  25: { keyFormat: 'sk-…', defaultBaseUrl: 'https://api.moonshot.cn', capabilities: OPENAI_CHAT },
  31: { keyFormat: 'API key', defaultBaseUrl: 'https://api.lingyiwanwu.com', capabilities: OPENAI_CHAT },
  33: { keyFormat: 'AK|SK|region', keyHint: 'aws_credentials', defaultBaseUrl: '', capabilities: ['chat'], nativeFormat: 'claude' },
  40: { keyFormat: 'sk-…', defaultBaseUrl: 'https://api.siliconflow.cn', capabilities: OPENAI_ALL },
  41: {
    keyFormat: '{"type": "service_account", "project_id": …, "private_key": …, "client_email": …}',
    keyHint: 'service_account_json',
    keyIsJson: true,
    defaultBaseUrl: '',
    capabilities: ['chat'],
    otherField: { meaning: 'region', default: 'us-central1' },
  },
  42: { keyFormat: 'API key', defaultBaseUrl: 'https://api.mistral.ai', capabilities: OPENAI_CHAT },
  43: { keyFormat: 'sk-…', defaultBaseUrl: 'https://api.deepseek.com', capabilities: OPENAI_CHAT },
  47: { keyFormat: 'any text', defaultBaseUrl: '', capabilities: OPENAI_CHAT },
};

/** What a channel's `other` field holds when it is empty, for types that give it a meaning. */
export function defaultOther(type: number): string {
  return CHANNEL_PROVIDERS[type]?.otherField?.default ?? '';
}

/**
 * The keys a channel's key field holds: one per line, or for JSON-document keys the document
 * (or each document of a JSON array), so a pretty-printed key file stays one key.
 */
export function channelKeys(type: number, raw: string): string[] {
  if (!CHANNEL_PROVIDERS[type]?.keyIsJson) {
    return raw
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  }
  const text = raw.trim();
  if (!text.startsWith('[')) return text ? [text] : [];
  try {
    const documents: unknown = JSON.parse(text);
    if (Array.isArray(documents)) return documents.map((document) => JSON.stringify(document));
  } catch {
    // Not an array after all: the adaptor reports the malformed key when it is used.
  }
  return [text];
}

/** Where a channel type's API lives when the channel sets no base_url. */
export function defaultBaseUrl(type: number): string {
  return CHANNEL_PROVIDERS[type]?.defaultBaseUrl ?? '';
}

export const CHANNEL_TYPE_IDS: readonly number[] = Object.keys(CHANNEL_TYPES).map(Number);

/** Google's Gemini API: it answers a revoked or blocked key with 403, where others answer 401. */
export const CHANNEL_TYPE_GEMINI = 24;

/** iFlytek Spark: `other` holds the API version, v2.1 when left empty. */
export const CHANNEL_TYPE_SPARK = 18;
export const SPARK_DEFAULT_VERSION = 'v2.1';
