import type { JsonObject } from '../wire/wire-format';

/**
 * Pieces of OpenAI's chat shape (the internal one) that the converters of text-only providers
 * (iFlytek Spark, Tencent Hunyuan) build on.
 */

/** A message's content as text: the string, or its text parts joined by newlines (images and audio left out). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as JsonObject[])
    .map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The chunks of one streamed answer: one creation time, and the assistant's role on the first. */
export class ChatChunkBuilder {
  private readonly created = Math.floor(Date.now() / 1000);
  private started = false;

  constructor(private readonly model: string) {}

  chunk(id: string, delta: JsonObject, finishReason: string | null): JsonObject {
    if (!this.started) {
      this.started = true;
      delta.role = 'assistant';
    }
    return { id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}
