import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError } from '../adaptor';
import { readUsage } from '../../wire/openai-usage';
import { tokenCount, type UsageMeter } from '../../wire/usage';

/**
 * MiniMax's chat completion v2 and embeddings beside OpenAI's shapes. MiniMax answers in
 * OpenAI's shape plus `base_resp: {status_code, status_msg}`, which carries its errors inside
 * HTTP 200 answers and stream events (status_code 0 is success).
 */

/** How the relay reads MiniMax's status codes (platform.minimaxi.com, "错误码查询"): a bad key 401, no balance insufficient_quota. */
const STATUS_CODES: Readonly<Record<number, { status: number; code?: string }>> = {
  1000: { status: 500 },
  1001: { status: 503 },
  1002: { status: 429 },
  1004: { status: 401 },
  1008: { status: 429, code: 'insufficient_quota' },
  1013: { status: 500 },
  1024: { status: 500 },
  1026: { status: 400, code: 'content_filter' },
  1027: { status: 400, code: 'content_filter' },
  1033: { status: 500 },
  1039: { status: 429 },
  1041: { status: 429 },
  1042: { status: 400 },
  2013: { status: 400 },
  2045: { status: 429 },
  2049: { status: 401 },
};

/** The error a MiniMax answer (or stream event) reports in its base_resp, or undefined when it reports none. */
export function miniMaxAnswerError(body: unknown): AnswerError | undefined {
  const baseResp = (body as { base_resp?: { status_code?: unknown; status_msg?: unknown } } | null)?.base_resp;
  const statusCode = baseResp?.status_code;
  if (typeof statusCode !== 'number' || statusCode === 0) return undefined;
  const known = STATUS_CODES[statusCode];
  const message = typeof baseResp?.status_msg === 'string' && baseResp.status_msg ? baseResp.status_msg : `MiniMax status ${statusCode}`;
  // Unknown codes are the request's fault (400) and reach the client, as the contract reads them.
  return { status: known?.status ?? 400, message, code: known?.code ?? `minimax_${statusCode}` };
}

/** An OpenAI embeddings body as MiniMax's `{model, texts, type}`; `type` (db or query) may come from the client, db otherwise. */
export function miniMaxEmbeddingsRequest(body: JsonObject, model: string): JsonObject {
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || !input.every((text): text is string => typeof text === 'string')) {
    throw new RelayError('invalid_request', 'MiniMax embeddings take text input only (a string or a list of strings)', 400);
  }
  return { model, texts: input, type: body.type === 'query' ? 'query' : 'db' };
}

/** MiniMax's `{vectors, total_tokens}` as OpenAI's embeddings answer: all its tokens are input. */
export function openAIEmbeddingsFromMiniMax(body: JsonObject, model: string): JsonObject {
  const vectors = Array.isArray(body.vectors) ? (body.vectors as unknown[]) : [];
  const tokens = tokenCount(body.total_tokens);
  return {
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** MiniMax's members that OpenAI's answers lack; an OpenAI client never sees them. */
const MINIMAX_EXTRAS = ['base_resp', 'input_sensitive', 'output_sensitive', 'input_sensitive_type', 'output_sensitive_type', 'output_sensitive_int'];

/** A MiniMax chat answer as OpenAI's: without base_resp and the sensitivity flags, a message without MiniMax's name and audio fields. */
export function openAIChatFromMiniMax(body: JsonObject): JsonObject {
  const answer: JsonObject = {};
  for (const [member, value] of Object.entries(body)) if (!MINIMAX_EXTRAS.includes(member)) answer[member] = value;
  answer.object = 'chat.completion';
  if (Array.isArray(body.choices)) {
    answer.choices = (body.choices as JsonObject[]).map((choice) => ({ ...choice, message: openAIMessage(choice.message as JsonObject | undefined) }));
  }
  return answer;
}

function openAIMessage(message: JsonObject | undefined): JsonObject {
  if (!message) return { role: 'assistant', content: '' };
  const { name: _name, audio_content: _audio, ...openAI } = message;
  return openAI;
}

/**
 * Per request: MiniMax's stream events as OpenAI chunks. Its last event repeats the whole
 * answer as a `message` (not a delta) with the usage and base_resp: it becomes the finishing
 * chunk, its text sent only if no delta carried it. An error in base_resp becomes the
 * in-stream error chunk (before any answer, the attempt fails as that error).
 */
export class MiniMaxChunkTranslator {
  /** A delta carried part of the answer: the last event's whole message is then not sent again. */
  private streamedText = false;

  constructor(private readonly usage: UsageMeter) {}

  translate(event: JsonObject): JsonObject[] {
    const error = miniMaxAnswerError(event);
    if (error) return [answerErrorChunk(error)];
    this.usage.add(readUsage(event.usage));
    if (!Array.isArray(event.choices)) return [];
    const choices = (event.choices as JsonObject[]).map((choice) => this.choiceDelta(choice));
    return [{ id: event.id, object: 'chat.completion.chunk', created: event.created, model: event.model, choices }];
  }

  private choiceDelta(choice: JsonObject): JsonObject {
    const delta = choice.delta as JsonObject | undefined;
    if (delta) {
      if (delta.content || delta.reasoning_content || delta.tool_calls) this.streamedText = true;
      const { name: _name, audio_content: _audio, ...openAI } = delta;
      return { index: choice.index ?? 0, delta: openAI, finish_reason: choice.finish_reason ?? null };
    }
    const message = openAIMessage(choice.message as JsonObject | undefined);
    const finishing = this.streamedText ? {} : { role: 'assistant', ...message };
    return { index: choice.index ?? 0, delta: finishing, finish_reason: choice.finish_reason ?? 'stop' };
  }
}
