/**
 * Which model names belong to which channel type, by name prefix (case-insensitive): the
 * data behind GET /api/models, the channel editor's "fill in the type's models". Aggregators
 * and self-hosted types (custom, Ollama, OpenRouter, AI Proxy, FastGPT, Dify, SiliconCloud,
 * Xinference) serve any model, so they have none of their own.
 */
const OPENAI = ['gpt-', 'chatgpt-', 'o1', 'o3', 'o4', 'dall-e', 'tts-', 'whisper', 'text-embedding-3', 'text-embedding-ada', 'text-moderation', 'omni-moderation'];
const CLAUDE = ['claude'];
const GEMINI = ['gemini', 'gemma'];

export const MODEL_PREFIXES_BY_CHANNEL_TYPE: Readonly<Record<number, readonly string[]>> = {
  1: OPENAI,
  2: ['mj_', 'swap_face'],
  3: OPENAI,
  5: ['mj_', 'swap_face'],
  11: ['chat-bison', 'text-bison'],
  14: CLAUDE,
  15: ['ernie'],
  16: ['glm', 'chatglm', 'cogview'],
  17: ['qwen', 'qwq', 'text-embedding-v'],
  18: ['sparkdesk', 'spark'],
  19: ['360'],
  23: ['hunyuan'],
  24: GEMINI,
  25: ['moonshot', 'kimi'],
  26: ['glm', 'chatglm', 'cogview'],
  31: ['yi-'],
  33: CLAUDE,
  34: ['command', 'embed-', 'rerank-'],
  35: ['abab', 'minimax'],
  36: ['suno_'],
  38: ['jina'],
  39: ['@cf/'],
  41: [...CLAUDE, ...GEMINI],
  42: ['mistral', 'open-mistral', 'codestral', 'pixtral', 'ministral'],
  43: ['deepseek'],
  44: ['m3e'],
  45: ['doubao'],
  46: ['ernie'],
};

/** Channel type → the known model names it serves (sorted), for every type with prefixes. */
export function modelsByChannelType(knownModels: Iterable<string>): Record<number, string[]> {
  const names = [...new Set(knownModels)].sort();
  const result: Record<number, string[]> = {};
  for (const [type, prefixes] of Object.entries(MODEL_PREFIXES_BY_CHANNEL_TYPE)) {
    result[Number(type)] = names.filter((name) => prefixes.some((prefix) => name.toLowerCase().startsWith(prefix)));
  }
  return result;
}
