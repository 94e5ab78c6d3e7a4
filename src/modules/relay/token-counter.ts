import type { JsonObject } from './providers/adaptor';
import type { RelayEndpoint } from './relay-endpoints';

/** Special-token text in a prompt is counted as ordinary text instead of being refused. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Older OpenAI models use cl100k; newer ones (and, as the closest guess, everyone else) o200k. */
const CL100K_MODELS = /^(gpt-3\.5|gpt-4(?!o|\.|-o)|text-embedding-(ada|3)|text-davinci|davinci|babbage)/;

type CountTokens = (text: string, options: typeof AS_PLAIN_TEXT) => number;
let cl100k: CountTokens | undefined;
let o200k: CountTokens | undefined;

/**
 * Real BPE token count of a text, with the encoding of the model's family. The encodings
 * (~70 MB for o200k) load on first use: most upstreams report usage, so many gateways
 * never need them.
 */
export function countTextTokens(model: string, text: string): number {
  if (!text) return 0;
  if (CL100K_MODELS.test(model)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cl100k ??= (require('gpt-tokenizer/cjs/encoding/cl100k_base') as { countTokens: CountTokens }).countTokens;
    return cl100k(text, AS_PLAIN_TEXT);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  o200k ??= (require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  return o200k(text, AS_PLAIN_TEXT);
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

/** Exact prompt tokens of a client request, for billing when the upstream reports none. */
export function countPromptTokens(endpoint: RelayEndpoint, model: string, body: JsonObject): number {
  const { texts, messages } = promptParts(endpoint, body);
  return framing(endpoint, messages) + texts.reduce((sum, text) => sum + countTextTokens(model, text), 0);
}

/**
 * A quick upper estimate of the prompt tokens, for the quota hold only: one token per three
 * UTF-8 bytes (about one per CJK character, a third more than English needs). The charge
 * itself always comes from reported usage or countPromptTokens.
 */
export function estimatePromptTokens(endpoint: RelayEndpoint, body: JsonObject): number {
  const { texts, messages } = promptParts(endpoint, body);
  return framing(endpoint, messages) + texts.reduce((sum, text) => sum + Math.ceil(Buffer.byteLength(text) / 3), 0);
}
