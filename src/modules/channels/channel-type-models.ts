import { CHANNEL_TYPE_ROWS } from './channel-types';

/** Channel type → the known model names it serves (sorted), for every type with prefixes. */
export function modelsByChannelType(knownModels: Iterable<string>): Record<number, string[]> {
  const names = [...new Set(knownModels)].sort();
  const result: Record<number, string[]> = {};
  // Aggregators and self-hosted types (custom, Ollama, OpenRouter, Dify, …) serve any model, so they list none of their own.
  for (const { type, modelPrefixes } of CHANNEL_TYPE_ROWS) {
    if (modelPrefixes.length > 0) result[type] = names.filter((name) => modelPrefixes.some((prefix) => name.toLowerCase().startsWith(prefix)));
  }
  return result;
}
