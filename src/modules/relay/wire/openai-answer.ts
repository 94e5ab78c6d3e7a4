import { openAIUsageOf } from './openai-usage';
import type { UsageReport } from './usage';
import type { JsonObject } from './wire-format';

/** The generated text of a chat, completion or Responses answer (or of one chunk of it). */
export function openAIAnswerText(answer: JsonObject): string {
  let text = '';
  if (Array.isArray(answer.choices)) {
    for (const choice of answer.choices as JsonObject[]) {
      const part = (choice.message ?? choice.delta) as JsonObject | undefined;
      if (part) {
        if (typeof part.content === 'string') text += part.content;
        if (typeof part.reasoning_content === 'string') text += part.reasoning_content;
        if (Array.isArray(part.tool_calls)) {
          for (const call of part.tool_calls as JsonObject[]) {
            const fn = call.function as JsonObject | undefined;
            if (typeof fn?.name === 'string') text += fn.name;
            if (typeof fn?.arguments === 'string') text += fn.arguments;
          }
        }
      } else if (typeof choice.text === 'string') {
        text += choice.text;
      }
    }
  }
  if (Array.isArray(answer.output)) {
    for (const item of answer.output as JsonObject[]) {
      if (!Array.isArray(item.content)) continue;
      for (const content of item.content as JsonObject[]) if (typeof content.text === 'string') text += content.text;
    }
  }
  return text;
}

/** The text of an OpenAI message's content: a string, or its text parts joined by newlines (for providers that take text only). */
export function openAIMessageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as JsonObject[])
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

/** An OpenAI chat completion of a provider's answer converted into `choices`, with its usage when reported. */
export function openAIChatCompletion(id: string, model: string, choices: JsonObject[], usage: UsageReport | undefined): JsonObject {
  const openAIUsage = openAIUsageOf(usage);
  return { id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices, ...(openAIUsage ? { usage: openAIUsage } : {}) };
}
