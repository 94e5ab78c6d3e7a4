/**
 * Channel types that speak OpenAI's wire format: they differ only in this data (their key
 * format and default base URL are in the shared CHANNEL_PROVIDERS table). To add one, add a
 * row here and there (see ../README.md).
 */
export interface OpenAICompatibleProvider {
  type: number;
  name: string;
  /** Accepts stream_options.include_usage, so a stream ends with a usage chunk. */
  streamUsage: boolean;
}

export const OPENAI_COMPATIBLE_PROVIDERS: readonly OpenAICompatibleProvider[] = [
  { type: 1, name: 'OpenAI', streamUsage: true },
  { type: 4, name: 'Ollama', streamUsage: true },
  { type: 8, name: 'Custom', streamUsage: true },
  { type: 19, name: '360', streamUsage: false },
  { type: 20, name: 'OpenRouter', streamUsage: true },
  { type: 21, name: 'AI Proxy', streamUsage: true },
  { type: 25, name: 'Moonshot', streamUsage: false },
  { type: 31, name: '01.AI', streamUsage: false },
  { type: 40, name: 'SiliconCloud', streamUsage: true },
  { type: 42, name: 'Mistral', streamUsage: false },
  { type: 43, name: 'DeepSeek', streamUsage: true },
  { type: 47, name: 'Xinference', streamUsage: false },
];
