/**
 * Prices shipped with a fresh install, so common models bill correctly out of the box.
 * model ratio = USD per 1M input tokens / 2; completion ratio = output price / input price;
 * cache ratio = cached-input price / input price. Fixed per-request prices are in USD.
 * Figures are the providers' public list prices (standard tier, shortest context band);
 * CNY prices are converted at 7.3 per USD. Operators adjust them in the pricing settings.
 */

/** One model's list price in USD per 1M tokens. */
interface ListPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

const CNY_PER_USD = 7.3;
/** A CNY list price (per 1M tokens) in USD. */
const cny = (input: number, output: number, cachedInput?: number): ListPrice => ({
  input: input / CNY_PER_USD,
  output: output / CNY_PER_USD,
  cachedInput: cachedInput === undefined ? undefined : cachedInput / CNY_PER_USD,
});

const TOKEN_PRICES: Record<string, ListPrice> = {
  // OpenAI: platform.openai.com/pricing
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-2025-04-14': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-mini-2025-04-14': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4.1-nano-2025-04-14': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-2024-11-20': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-2024-08-06': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'chatgpt-4o-latest': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'gpt-4o-mini-2024-07-18': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'o1': { input: 15, output: 60, cachedInput: 7.5 },
  'o1-2024-12-17': { input: 15, output: 60, cachedInput: 7.5 },
  'o1-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o1-pro': { input: 150, output: 600 },
  'o3': { input: 2, output: 8, cachedInput: 0.5 },
  'o3-2025-04-16': { input: 2, output: 8, cachedInput: 0.5 },
  'o3-pro': { input: 20, output: 80 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'o4-mini-2025-04-16': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'gpt-3.5-turbo-0125': { input: 0.5, output: 1.5 },
  'text-embedding-3-small': { input: 0.02, output: 0.02 },
  'text-embedding-3-large': { input: 0.13, output: 0.13 },
  'text-embedding-ada-002': { input: 0.1, output: 0.1 },
  // Speech: $15 / $30 per 1M input characters, billed as tokens.
  'tts-1': { input: 15, output: 15 },
  'tts-1-hd': { input: 30, output: 30 },
  // Transcription is $0.006 per minute upstream; priced by tokens as new-api does (ratio 15).
  'whisper-1': { input: 30, output: 30 },
  // Anthropic: anthropic.com/pricing (cache reads at 10% of input)
  'claude-opus-4-5-20251101': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-1-20250805': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-20250514': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4-0': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-sonnet-4-5-20250929': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4-20250514': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4-0': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-haiku-4-5-20251001': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-3-7-sonnet-20250219': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-7-sonnet-latest': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-5-sonnet-20241022': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-5-sonnet-20240620': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-5-sonnet-latest': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-5-haiku-20241022': { input: 0.8, output: 4, cachedInput: 0.08 },
  'claude-3-5-haiku-latest': { input: 0.8, output: 4, cachedInput: 0.08 },
  'claude-3-opus-20240229': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-3-haiku-20240307': { input: 0.25, output: 1.25, cachedInput: 0.03 },
  // Google Gemini: ai.google.dev/pricing (prompts up to 128K/200K tokens)
  'gemini-3-pro-preview': { input: 2, output: 12, cachedInput: 0.2 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.03 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.01 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gemini-2.0-flash-001': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, output: 5, cachedInput: 0.3125 },
  'gemini-1.5-flash': { input: 0.075, output: 0.3, cachedInput: 0.01875 },
  'gemini-1.5-flash-8b': { input: 0.0375, output: 0.15, cachedInput: 0.01 },
  'text-embedding-004': { input: 0.01, output: 0.01 },
  // DeepSeek: api-docs.deepseek.com/quick_start/pricing (V3.2, cache hit / miss)
  'deepseek-chat': { input: 0.28, output: 0.42, cachedInput: 0.028 },
  'deepseek-reasoner': { input: 0.28, output: 0.42, cachedInput: 0.028 },
  // Alibaba Qwen: Model Studio international list prices
  'qwen-max': { input: 1.6, output: 6.4 },
  'qwen-plus': { input: 0.4, output: 1.2 },
  'qwen-turbo': { input: 0.05, output: 0.2 },
  'qwen-long': cny(0.5, 2),
  'qwq-plus': { input: 0.8, output: 2.4 },
  'qwen-vl-max': { input: 0.8, output: 3.2 },
  'qwen-vl-plus': { input: 0.21, output: 0.63 },
  'text-embedding-v3': { input: 0.07, output: 0.07 },
  // Moonshot (Kimi): platform.moonshot.ai pricing
  'moonshot-v1-8k': { input: 0.2, output: 2 },
  'moonshot-v1-32k': { input: 1, output: 3 },
  'moonshot-v1-128k': { input: 2, output: 5 },
  'kimi-k2-0711-preview': { input: 0.6, output: 2.5, cachedInput: 0.15 },
  'kimi-k2-0905-preview': { input: 0.6, output: 2.5, cachedInput: 0.15 },
  'kimi-k2-turbo-preview': { input: 1.15, output: 8, cachedInput: 0.15 },
  // Mistral: mistral.ai/pricing
  'mistral-large-latest': { input: 2, output: 6 },
  'mistral-medium-latest': { input: 0.4, output: 2 },
  'mistral-small-latest': { input: 0.1, output: 0.3 },
  'codestral-latest': { input: 0.3, output: 0.9 },
  'open-mistral-nemo': { input: 0.15, output: 0.15 },
  'ministral-8b-latest': { input: 0.1, output: 0.1 },
  'ministral-3b-latest': { input: 0.04, output: 0.04 },
  'pixtral-large-latest': { input: 2, output: 6 },
  'mistral-embed': { input: 0.1, output: 0.1 },
  // Zhipu GLM: z.ai / bigmodel.cn list prices
  'glm-4.6': { input: 0.6, output: 2.2, cachedInput: 0.11 },
  'glm-4.5': { input: 0.6, output: 2.2, cachedInput: 0.11 },
  'glm-4.5-air': { input: 0.2, output: 1.1, cachedInput: 0.03 },
  'glm-4-plus': cny(5, 5),
  'glm-4-air': cny(0.5, 0.5),
  'glm-4-long': cny(1, 1),
  'embedding-3': cny(0.5, 0.5),
  // Volcengine Doubao: volcengine.com/docs/82379 (CNY, 0–32K input band)
  'doubao-seed-1-6-250615': cny(0.8, 8, 0.16),
  'doubao-seed-1-6-flash-250615': cny(0.15, 1.5, 0.03),
  'doubao-seed-1-6-thinking-250715': cny(0.8, 8, 0.16),
  'doubao-1-5-pro-32k-250115': cny(0.8, 2, 0.16),
  'doubao-1-5-pro-256k-250115': cny(5, 9),
  'doubao-1-5-lite-32k-250115': cny(0.3, 0.6, 0.06),
  'doubao-1-5-thinking-pro-250415': cny(4, 16),
  // Tencent Hunyuan: cloud.tencent.com/document/product/1729/97731 (CNY)
  'hunyuan-turbos-latest': cny(0.8, 2),
  'hunyuan-t1-latest': cny(1, 4),
  'hunyuan-large': cny(4, 12),
  // Baidu ERNIE: cloud.baidu.com qianfan price list (CNY)
  'ernie-4.5-turbo-128k': cny(0.8, 3.2),
  'ernie-x1-turbo-32k': cny(1, 4),
  'ernie-4.0-8k': cny(30, 90),
  // MiniMax: platform.minimaxi.com pricing (international)
  'MiniMax-M1': { input: 0.4, output: 2.2 },
  'MiniMax-Text-01': { input: 0.2, output: 1.1 },
  // Cohere: cohere.com/pricing
  'command-a-03-2025': { input: 2.5, output: 10 },
  'command-r-plus': { input: 2.5, output: 10 },
  'command-r': { input: 0.15, output: 0.6 },
  'command-r7b-12-2024': { input: 0.0375, output: 0.15 },
  // 01.AI (Yi): platform.lingyiwanwu.com (CNY)
  'yi-lightning': cny(0.99, 0.99),
};

const round = (value: number) => Number(value.toPrecision(6));

function derive(pick: (price: ListPrice) => number | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [model, price] of Object.entries(TOKEN_PRICES)) {
    const value = pick(price);
    if (value !== undefined) out[model] = round(value);
  }
  return out;
}

/** Derived from the list prices above, like the two maps below. */
export const DEFAULT_MODEL_RATIO: Record<string, number> = derive((price) => price.input / 2);

/** Only where output costs differ from input. */
export const DEFAULT_COMPLETION_RATIO: Record<string, number> = derive((price) => (price.input > 0 && price.output !== price.input ? price.output / price.input : undefined));

export const DEFAULT_CACHE_RATIO: Record<string, number> = derive((price) => (price.cachedInput !== undefined && price.input > 0 ? price.cachedInput / price.input : undefined));

/** Prompt tokens written to the cache, as a multiple of the input price: Anthropic bills 5-minute cache writes at 1.25×. */
export const DEFAULT_CREATE_CACHE_RATIO: Record<string, number> = Object.fromEntries(
  Object.keys(TOKEN_PRICES)
    .filter((model) => model.startsWith('claude'))
    .map((model) => [model, 1.25]),
);

/**
 * Audio tokens of the Realtime API, as multiples of the model's text input price (OpenAI's list:
 * gpt-realtime takes text at $4 and audio at $32 per 1M input tokens, so 8).
 */
export const DEFAULT_AUDIO_RATIO: Record<string, number> = {
  'gpt-realtime': 8,
  'gpt-realtime-mini': 16.67,
  'gpt-4o-realtime-preview': 8,
  'gpt-4o-mini-realtime-preview': 16.67,
  'gpt-4o-audio-preview': 16,
  'gpt-4o-mini-audio-preview': 66.67,
};

/** Audio output tokens as multiples of the model's audio input price (OpenAI bills audio output at twice its input). */
export const DEFAULT_AUDIO_COMPLETION_RATIO: Record<string, number> = Object.fromEntries(Object.keys(DEFAULT_AUDIO_RATIO).map((model) => [model, 2]));

/** Per-call prices in USD: image generation (standard quality, 1024×1024), drawing and music tasks. */
export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  // OpenAI images
  'dall-e-3': 0.04,
  'dall-e-2': 0.02,
  // Midjourney Proxy (per task, as commonly resold). Inpaint and custom zoom only open the
  // window whose /submit/modal does the drawing and is billed as mj_modal, so they are free (as in new-api).
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_custom_zoom: 0,
  mj_inpaint: 0,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_upscale: 0.05,
  mj_describe: 0.05,
  mj_upload: 0.05,
  swap_face: 0.05,
  // Suno (per task)
  suno_music: 0.1,
  suno_lyrics: 0.01,
};
