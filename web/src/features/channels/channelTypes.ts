/** Channel provider kinds (id → name), the same table the server validates against (src/modules/channels/channel-types.ts). */
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

export const CHANNEL_TYPE_OPTIONS = Object.entries(CHANNEL_TYPES).map(([id, name]) => ({ id: Number(id), name }));

export const CHANNEL_TYPE_SPARK = 18;
export const SPARK_DEFAULT_VERSION = 'v2.1';

export function channelTypeName(type: number): string {
  return CHANNEL_TYPES[type] ?? `#${type}`;
}
