import type { JsonObject, WireFormat } from '../wire/wire-format';
import type { Usage } from '../wire/usage';

/** What the client asked for that shapes its answer. */
export interface ClientStreamOptions {
  /** The model name the client asked for (answers name it, not the upstream's). */
  model: string;
  /** OpenAI clients get a usage chunk only when they asked for it (stream_options.include_usage). */
  includeUsage: boolean;
  /** OpenAI clients may ask for embeddings as base64 of little-endian float32 (the SDK's default). */
  base64Embeddings?: boolean;
  /** Responses clients: the custom (freeform) tools they declared, whose calls answer as custom_tool_call items. */
  customTools?: readonly string[];
  /** Responses clients: the namespaces of their tools (flattened as `namespace__name` on Chat). */
  toolNamespaces?: readonly string[];
}

/**
 * Per request: writes OpenAI chunks (the internal shape) in the client's stream format, with
 * its framing. Stateful: Claude's events open and close content blocks as the chunks go.
 */
export interface StreamEncoder {
  /** The client's bytes for one chunk (may be empty). The chunk is the encoder's to change: the decoder made it for this call alone. */
  encode(chunk: JsonObject): string;
  /** The client's closing bytes, with the collected usage. */
  end(usage: Usage | undefined): string;
}

/**
 * One inbound API format (OpenAI, Claude Messages, Gemini). Requests in it convert into
 * OpenAI's format, the internal shape, when the channel speaks another; answers convert back.
 */
export interface InboundFormat {
  readonly wire: WireFormat;
  /** The client's body as an OpenAI body for the same endpoint (a new object; the client's is untouched). */
  toOpenAIRequest(body: JsonObject): JsonObject;
  /** An OpenAI answer as the client's. */
  fromOpenAIResponse(answer: JsonObject, options: ClientStreamOptions): JsonObject;
  createStreamEncoder(options: ClientStreamOptions): StreamEncoder;
}

/** The first choice of an OpenAI answer or stream chunk (converted answers carry one), if it has any. */
export function firstChoice(answer: JsonObject): JsonObject | undefined {
  return Array.isArray(answer.choices) ? (answer.choices as JsonObject[])[0] : undefined;
}
