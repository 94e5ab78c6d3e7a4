import { fullUsage, tokenCount, type Usage, type UsageReport } from './usage';
import type { JsonObject } from './wire-format';

/** Usage in any of OpenAI's shapes: chat/completions/embeddings (prompt/completion) and Responses/images (input/output). */
export function readUsage(value: unknown): UsageReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as JsonObject;
  // The Realtime API spells its details input_token_details / output_token_details.
  const promptDetails = (usage.prompt_tokens_details ?? usage.input_tokens_details ?? usage.input_token_details) as JsonObject | undefined;
  const completionDetails = (usage.completion_tokens_details ?? usage.output_tokens_details ?? usage.output_token_details) as JsonObject | undefined;
  const prompt = tokenCount(usage.prompt_tokens ?? usage.input_tokens);
  const completion = tokenCount(usage.completion_tokens ?? usage.output_tokens);
  // Embeddings and rerank report only a total: all of it is input.
  const total = tokenCount(usage.total_tokens);
  const promptTokens = prompt === 0 && completion === 0 ? total : prompt;
  if (promptTokens === 0 && completion === 0 && total === 0) return undefined;
  const report: UsageReport = { promptTokens, completionTokens: completion, cachedTokens: tokenCount(promptDetails?.cached_tokens) };
  if (promptDetails?.cache_creation_tokens !== undefined) report.cacheWriteTokens = tokenCount(promptDetails.cache_creation_tokens);
  if (completionDetails?.reasoning_tokens !== undefined) report.reasoningTokens = tokenCount(completionDetails.reasoning_tokens);
  if (promptDetails?.audio_tokens !== undefined) report.audioInputTokens = tokenCount(promptDetails.audio_tokens);
  if (completionDetails?.audio_tokens !== undefined) report.audioOutputTokens = tokenCount(completionDetails.audio_tokens);
  if (promptDetails?.image_tokens !== undefined) report.imageInputTokens = tokenCount(promptDetails.image_tokens);
  return report;
}

/** OpenAI's usage object for a report, or undefined without one. */
export function openAIUsageOf(report: UsageReport | undefined): JsonObject | undefined {
  const usage = fullUsage(report);
  return usage && openAIUsage(usage);
}

/** The usage object of an OpenAI answer. */
export function openAIUsage(usage: Usage): JsonObject {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, ...(usage.cacheWriteTokens ? { cache_creation_tokens: usage.cacheWriteTokens } : {}) },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
