import type { JsonObject } from './wire/wire-format';
import type { RelayEndpoint } from './relay-endpoints';

/** Older OpenAI models use cl100k; newer ones (and, as the closest guess, everyone else) o200k. */
const CL100K_MODELS = /^(gpt-3\.5|gpt-4(?!o|\.|-o)|text-embedding-(ada|3)|text-davinci|davinci|babbage)/;

export type TokenEncoding = 'cl100k_base' | 'o200k_base';

/** The BPE encoding of the model's family. */
export function encodingFor(model: string): TokenEncoding {
  return CL100K_MODELS.test(model) ? 'cl100k_base' : 'o200k_base';
}

/** OpenAI's chat framing: each message costs 3 tokens beyond its text, and the reply is primed with 3. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_REPLY_PRIMING = 3;

/**
 * The text of a message's content: strings and text parts, and Claude's blocks that carry the
 * conversation of a tool loop (thinking, a tool_use's name and input, a tool_result's content),
 * which make up most of a coding agent's prompt.
 */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (typeof part === 'object' && part !== null) text += blockText(part as JsonObject);
  }
  return text;
}

function blockText(block: JsonObject): string {
  if (typeof block.text === 'string') return block.text;
  if (typeof block.thinking === 'string') return block.thinking;
  if (block.type === 'tool_use') return `${String(block.name ?? '')}${JSON.stringify(block.input ?? {})}`;
  if (block.type === 'tool_result') return contentText(block.content);
  return '';
}

/** A prompt, input or query: a string, or a list of strings, `{text}` items (rerank documents, Jina's inputs) and messages. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(itemText).join('\n');
  return '';
}

function itemText(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item !== 'object' || item === null) return '';
  const { text, content } = item as JsonObject;
  return typeof text === 'string' ? text : contentText(content ?? item);
}

/** The prompt's texts as the model sees them, and how many chat messages frame them. */
function promptParts(endpoint: RelayEndpoint, body: JsonObject): { texts: string[]; messages: number } {
  switch (endpoint) {
    case 'chat': {
      if (!Array.isArray(body.messages)) return { texts: [], messages: 0 };
      const texts: string[] = [];
      let messages = 0;
      for (const message of body.messages as JsonObject[]) {
        if (typeof message !== 'object' || message === null) continue;
        messages += 1;
        texts.push(String(message.role ?? ''), contentText(message.content));
        if (typeof message.name === 'string') texts.push(message.name);
      }
      // Claude's Messages format keeps the system prompt beside the messages.
      if (body.system !== undefined) texts.push(contentText(body.system));
      if (Array.isArray(body.tools)) texts.push(JSON.stringify(body.tools));
      return { texts, messages };
    }
    case 'completions':
    case 'images':
      return { texts: [textOf(body.prompt)], messages: 0 };
    case 'embeddings':
    case 'moderations':
    case 'audio_speech':
      return { texts: [textOf(body.input)], messages: 0 };
    case 'responses':
      return { texts: [typeof body.instructions === 'string' ? body.instructions : '', textOf(body.input)], messages: 0 };
    case 'rerank':
      return { texts: [textOf(body.query), textOf(body.documents)], messages: 0 };
    case 'audio_transcription':
    case 'audio_translation':
    case 'image_edits':
      return { texts: [], messages: 0 };
  }
}

function framing(endpoint: RelayEndpoint, messages: number): number {
  return endpoint === 'chat' ? TOKENS_REPLY_PRIMING + messages * TOKENS_PER_MESSAGE : 0;
}

/** The prompt's texts, and the tokens chat framing adds to them, for an exact count (TokenCounterService). */
export function promptTexts(endpoint: RelayEndpoint, body: JsonObject): { texts: string[]; framingTokens: number } {
  const { texts, messages } = promptParts(endpoint, body);
  return { texts, framingTokens: framing(endpoint, messages) };
}

/**
 * A quick upper estimate of the prompt tokens, for the quota hold only: one token per three
 * UTF-8 bytes (about one per CJK character, a third more than English needs). The charge
 * itself always comes from reported usage or TokenCounterService.
 */
export function estimatePromptTokens(endpoint: RelayEndpoint, body: JsonObject): number {
  const { texts, messages } = promptParts(endpoint, body);
  return framing(endpoint, messages) + texts.reduce((sum, text) => sum + Math.ceil(Buffer.byteLength(text) / 3), 0);
}
