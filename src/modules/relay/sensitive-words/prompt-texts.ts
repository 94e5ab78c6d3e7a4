import type { JsonObject } from '../wire/wire-format';
import type { RelayEndpoint } from '../relay-endpoints';

/**
 * Calls `visit` with each text of a request's prompt, in any inbound format: OpenAI messages
 * (string or text parts), Claude's `system` and content blocks, Gemini's `contents` and
 * `systemInstruction` parts, and the prompt or input of the other endpoints. Stops as soon as
 * `visit` answers true, and answers whether it did. Nothing is concatenated or copied.
 */
export function somePromptText(endpoint: RelayEndpoint, body: JsonObject, visit: (text: string) => boolean): boolean {
  switch (endpoint) {
    case 'chat':
      return (
        someMessageText(body.messages, visit) ||
        someContentText(body.system, visit) ||
        someMessageText(body.contents, visit) ||
        someContentText(partsOf(body.systemInstruction ?? body.system_instruction), visit)
      );
    case 'completions':
    case 'images':
      return someContentText(body.prompt, visit);
    case 'embeddings':
    case 'moderations':
    case 'audio_speech':
      return someContentText(body.input, visit);
    case 'responses':
      return someContentText(body.instructions, visit) || someContentText(body.input, visit) || someMessageText(body.input, visit);
    case 'rerank':
      return someContentText(body.query, visit) || someContentText(body.documents, visit);
    case 'audio_transcription':
    case 'audio_translation':
    case 'image_edits':
      return false;
  }
}

/** Messages of OpenAI or Claude (`content`) or Gemini (`parts`). */
function someMessageText(messages: unknown, visit: (text: string) => boolean): boolean {
  if (!Array.isArray(messages)) return false;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { content, parts } = message as JsonObject;
    if (someContentText(content, visit) || someContentText(parts, visit)) return true;
  }
  return false;
}

/** A string, or a list of strings and text parts (`{text}`, `{type:"text", text}`). */
function someContentText(content: unknown, visit: (text: string) => boolean): boolean {
  if (typeof content === 'string') return visit(content);
  if (!Array.isArray(content)) return false;
  for (const part of content) {
    if (typeof part === 'string') {
      if (visit(part)) return true;
    } else if (typeof part === 'object' && part !== null && typeof (part as JsonObject).text === 'string') {
      if (visit((part as JsonObject).text as string)) return true;
    }
  }
  return false;
}

function partsOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as JsonObject).parts : undefined;
}
