/**
 * Channel types that speak OpenAI's wire format: they differ only in this data. To add one,
 * add a row (see ../README.md).
 */
export interface OpenAICompatibleProvider {
  type: number;
  name: string;
  /** Used when the channel has no base_url. Empty: the channel must set one (self-hosted). */
  defaultBaseUrl: string;
  /** Accepts stream_options.include_usage, so a stream ends with a usage chunk. */
  streamUsage: boolean;
}

export const OPENAI_COMPATIBLE_PROVIDERS: readonly OpenAICompatibleProvider[] = [
  { type: 1, name: 'OpenAI', defaultBaseUrl: 'https://api.openai.com', streamUsage: true },
  { type: 4, name: 'Ollama', defaultBaseUrl: 'http://localhost:11434', streamUsage: true },
  { type: 8, name: 'Custom', defaultBaseUrl: '', streamUsage: true },
  { type: 19, name: '360', defaultBaseUrl: 'https://ai.360.cn', streamUsage: false },
  { type: 20, name: 'OpenRouter', defaultBaseUrl: 'https://openrouter.ai/api', streamUsage: true },
  { type: 21, name: 'AI Proxy', defaultBaseUrl: 'https://api.aiproxy.io', streamUsage: true },
  { type: 25, name: 'Moonshot', defaultBaseUrl: 'https://api.moonshot.cn', streamUsage: false },
  { type: 31, name: '01.AI', defaultBaseUrl: 'https://api.lingyiwanwu.com', streamUsage: false },
  { type: 40, name: 'SiliconCloud', defaultBaseUrl: 'https://api.siliconflow.cn', streamUsage: true },
  { type: 42, name: 'Mistral', defaultBaseUrl: 'https://api.mistral.ai', streamUsage: false },
  { type: 43, name: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com', streamUsage: true },
  { type: 47, name: 'Xinference', defaultBaseUrl: '', streamUsage: false },
];
