import type { JsonObject } from '../wire/wire-format';
import { sseFrame } from '../wire/sse-decoder';
import { openAIUsage } from '../wire/openai-usage';
import type { Usage } from '../wire/usage';
import type { ClientStreamOptions, InboundFormat, StreamEncoder } from './inbound-format';

/** OpenAI's own format: the internal shape, so requests and answers convert as they are. */
export const OPENAI_FORMAT: InboundFormat = {
  wire: 'openai',
  toOpenAIRequest: (body) => ({ ...body }),
  fromOpenAIResponse: (answer, options) => ({ ...answer, model: options.model, ...(options.base64Embeddings ? { data: base64Embeddings(answer.data) } : {}) }),
  createStreamEncoder: (options) => new OpenAIStreamEncoder(options),
};

/** Embedding vectors converted from another provider, encoded as OpenAI does for encoding_format=base64. */
function base64Embeddings(data: unknown): unknown {
  if (!Array.isArray(data)) return data;
  return (data as JsonObject[]).map((entry) =>
    Array.isArray(entry.embedding) ? { ...entry, embedding: Buffer.from(new Float32Array(entry.embedding as number[]).buffer).toString('base64') } : entry,
  );
}

/**
 * OpenAI chunks as SSE. A chunk that only carries usage reaches the client when it asked for
 * usage, and the collected usage closes the stream then (a provider that reports usage in
 * pieces has no such chunk of its own).
 */
class OpenAIStreamEncoder implements StreamEncoder {
  private id = '';
  private created = Math.floor(Date.now() / 1000);

  constructor(private readonly options: ClientStreamOptions) {}

  encode(chunk: JsonObject): string {
    if (typeof chunk.id === 'string') this.id = chunk.id;
    if (typeof chunk.created === 'number') this.created = chunk.created;
    const choices = chunk.choices;
    if (Array.isArray(choices) && choices.length === 0) return '';
    // An in-stream error goes out as OpenAI writes one: the error alone.
    if (chunk.error !== undefined) return sseFrame(JSON.stringify({ error: chunk.error }));
    // Changed in place rather than copied without usage (a rest copy cost more than the stringify): JSON.stringify leaves out an undefined member.
    if (chunk.usage !== undefined) chunk.usage = undefined;
    chunk.model = this.options.model;
    return sseFrame(JSON.stringify(chunk));
  }

  end(usage: Usage | undefined): string {
    let tail = '';
    if (this.options.includeUsage && usage) {
      tail += sseFrame(JSON.stringify({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.options.model, choices: [], usage: openAIUsage(usage) }));
    }
    return `${tail}data: [DONE]\n\n`;
  }
}
