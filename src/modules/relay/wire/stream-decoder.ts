import type { JsonObject } from './wire-format';

/**
 * Per request: turns a provider's stream (its own framing: SSE, AWS event-stream, …) into
 * OpenAI chat chunks, the internal shape, collecting usage as the events pass.
 */
export interface StreamDecoder {
  /** The chunks that this piece of the upstream stream completes. */
  push(bytes: Buffer): JsonObject[];
  /** The chunks still buffered when the upstream ends. */
  end(): JsonObject[];
}

/**
 * OpenAI's in-stream error chunk, the internal shape of an error an upstream sends mid-stream
 * (Claude's `error` event, Google's `{error}`): each client's encoder renders it in its format.
 */
export function streamErrorChunk(message: unknown, type: unknown, code: number | null = null): JsonObject {
  return { error: { message: typeof message === 'string' ? message : 'The upstream stream failed', type: typeof type === 'string' ? type : 'api_error', code } };
}
