import { countTokens as countCl100k } from 'gpt-tokenizer/cjs/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/cjs/encoding/o200k_base';
import type { JsonObject } from './providers/adaptor';
import type { RelayEndpoint } from './relay-endpoints';

/** Special-token text in a prompt is counted as ordinary text instead of being refused. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Older OpenAI models use cl100k; newer ones (and, as the closest guess, everyone else) o200k. */
const CL100K_MODELS = /^(gpt-3\.5|gpt-4(?!o|\.|-o)|text-embedding-(ada|3)|text-davinci|davinci|babbage)/;

/** Real BPE token count of a text, with the encoding of the model's family. */
export function countTextTokens(model: string, text: string): number {
  if (!text) return 0;
  return CL100K_MODELS.test(model) ? countCl100k(text, AS_PLAIN_TEXT) : countO200k(text, AS_PLAIN_TEXT);
}

/** OpenAI's chat framing: each message costs 3 tokens beyond its text, and the reply is primed with 3. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_REPLY_PRIMING = 3;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (typeof part === 'object' && part !== null && typeof (part as JsonObject).text === 'string') text += (part as JsonObject).text as string;
  }
  return text;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : contentText((item as JsonObject | null)?.content ?? item))).join('\n');
  return '';
}

/** Estimates the prompt tokens of a client request, for the quota hold and when the upstream reports none. */
export function estimatePromptTokens(endpoint: RelayEndpoint, model: string, body: JsonObject): number {
  switch (endpoint) {
    case 'chat': {
      if (!Array.isArray(body.messages)) return 0;
      let tokens = TOKENS_REPLY_PRIMING;
      for (const message of body.messages as JsonObject[]) {
        if (typeof message !== 'object' || message === null) continue;
        tokens += TOKENS_PER_MESSAGE + countTextTokens(model, String(message.role ?? '')) + countTextTokens(model, contentText(message.content));
        if (typeof message.name === 'string') tokens += 1 + countTextTokens(model, message.name);
      }
      if (Array.isArray(body.tools)) tokens += countTextTokens(model, JSON.stringify(body.tools));
      return tokens;
    }
    case 'completions':
      return countTextTokens(model, textOf(body.prompt));
    case 'embeddings':
    case 'moderations':
      return countTextTokens(model, textOf(body.input));
    case 'responses': {
      const instructions = typeof body.instructions === 'string' ? body.instructions : '';
      return countTextTokens(model, instructions + textOf(body.input));
    }
    case 'rerank':
      return countTextTokens(model, textOf(body.query) + textOf(body.documents));
    case 'images':
      return countTextTokens(model, textOf(body.prompt));
    case 'audio_speech':
      return countTextTokens(model, textOf(body.input));
    case 'audio_transcription':
    case 'audio_translation':
      return 0;
  }
}
