import { RelayError } from '../../relay-error';
import { scrubUpstreamMessage } from '../../upstream-error';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError, type AnswerReading } from '../adaptor';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';
import { BAIDU_ERROR_CODES } from './baidu-models';

/**
 * OpenAI's sampling fields → ERNIE's, as data: the field ERNIE names it, and the range ERNIE
 * takes (a value outside is clamped, so a request valid for OpenAI is not refused for it:
 * ERNIE's temperature is (0, 1], OpenAI's [0, 2]). Later rows win: max_completion_tokens
 * over the older max_tokens.
 */
const SAMPLING_FIELDS: ReadonlyArray<{ from: string; to: string; min?: number; max?: number; integer?: boolean }> = [
  { from: 'temperature', to: 'temperature', min: 0.01, max: 1 },
  { from: 'top_p', to: 'top_p', min: 0, max: 1 },
  { from: 'penalty_score', to: 'penalty_score', min: 1, max: 2 },
  { from: 'max_tokens', to: 'max_output_tokens', min: 2, integer: true },
  { from: 'max_completion_tokens', to: 'max_output_tokens', min: 2, integer: true },
];

/** ERNIE's own switches a client may send in an OpenAI body: passed on as they are. */
const ERNIE_FLAGS = ['disable_search', 'enable_citation', 'enable_trace'] as const;

/** ERNIE's finish_reason → OpenAI's. `normal` is ERNIE's natural end. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  normal: 'stop',
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  function_call: 'function_call',
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clamp(value: number, min = -Infinity, max = Infinity): number {
  return Math.min(max, Math.max(min, value));
}

/** The text of an OpenAI message's content; ERNIE's chat takes text only, so any other part is refused. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw new RelayError('invalid_request', 'A message content must be a string or a list of parts', 400);
  return content
    .map((part: unknown) => {
      if (isObject(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
      throw new RelayError('invalid_request', 'Baidu ERNIE models take text only: images, audio and files cannot be sent to them', 400);
    })
    .join('\n');
}

/**
 * An OpenAI chat body as ERNIE's: system messages become `system`; user and assistant turns
 * follow, consecutive turns of one role joined (ERNIE wants them alternating); sampling fields
 * renamed and clamped; `user` becomes `user_id`. Tools and tool messages are refused: the
 * ERNIE endpoints' function calling is not converted.
 */
export function ernieRequestFromOpenAI(body: JsonObject): JsonObject {
  if (Array.isArray(body.tools) && body.tools.length > 0) throw new RelayError('invalid_request', 'Tools are not supported on Baidu ERNIE channels', 400);
  const system: string[] = [];
  const messages: Array<{ role: string; content: string }> = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as unknown[]) : []) {
    if (!isObject(message)) continue;
    const text = messageText(message.content);
    if (message.role === 'system' || message.role === 'developer') {
      system.push(text);
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant') throw new RelayError('invalid_request', `Baidu ERNIE models take no ${String(message.role)} messages`, 400);
    const last = messages[messages.length - 1];
    if (last?.role === message.role) last.content += `\n\n${text}`;
    else messages.push({ role: message.role, content: text });
  }
  const request: JsonObject = { messages };
  if (system.length > 0) request.system = system.join('\n');
  for (const field of SAMPLING_FIELDS) {
    const value = body[field.from];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const clamped = clamp(value, field.min, field.max);
    request[field.to] = field.integer ? Math.round(clamped) : clamped;
  }
  // OpenAI's frequency penalty is neutral at 0 (up to 2); ERNIE's penalty_score is neutral at 1 (up to 2).
  if (request.penalty_score === undefined && typeof body.frequency_penalty === 'number' && body.frequency_penalty > 0) {
    request.penalty_score = clamp(1 + body.frequency_penalty / 2, 1, 2);
  }
  const stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (Array.isArray(stop) && stop.length > 0) request.stop = stop;
  if (typeof body.user === 'string' && body.user) request.user_id = body.user;
  if (isObject(body.response_format) && body.response_format.type === 'json_object') request.response_format = 'json_object';
  for (const flag of ERNIE_FLAGS) if (typeof body[flag] === 'boolean') request[flag] = body[flag];
  if (body.stream === true) request.stream = true;
  return request;
}

/** An OpenAI embeddings body as ERNIE's: a list of strings (token arrays cannot be sent). */
export function ernieEmbeddingsFromOpenAI(body: JsonObject): JsonObject {
  const inputs = Array.isArray(body.input) ? (body.input as unknown[]) : [body.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) throw new RelayError('invalid_request', 'Baidu embeddings take text inputs only', 400);
  const request: JsonObject = { input: inputs };
  if (typeof body.user === 'string' && body.user) request.user_id = body.user;
  return request;
}

/**
 * ERNIE's usage: OpenAI's field names. A stream's events carry running totals, some with
 * only the prompt and total counted, so the output is the total less the prompt when the
 * completion count is missing.
 */
export function ernieUsage(value: unknown): UsageReport | undefined {
  if (!isObject(value)) return undefined;
  const prompt = tokenCount(value.prompt_tokens);
  const total = tokenCount(value.total_tokens);
  const completion = tokenCount(value.completion_tokens) || Math.max(0, total - prompt);
  if (prompt === 0 && completion === 0) return total > 0 ? { promptTokens: total, completionTokens: 0 } : undefined;
  return { promptTokens: prompt, completionTokens: completion };
}

/** The usage and text of a complete ERNIE answer (chat or embeddings) or of one stream event. */
export function readErnieAnswer(body: unknown): AnswerReading {
  if (!isObject(body)) return { text: '' };
  return { usage: ernieUsage(body.usage), text: typeof body.result === 'string' ? body.result : '' };
}

function openAIFinishReason(answer: JsonObject): string {
  if (answer.is_truncated === true) return 'length';
  return (typeof answer.finish_reason === 'string' && FINISH_REASONS[answer.finish_reason]) || 'stop';
}

function openAIUsage(usage: UsageReport | undefined): JsonObject | undefined {
  if (!usage) return undefined;
  const prompt = usage.promptTokens ?? 0;
  const completion = usage.completionTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function answerId(answer: JsonObject): string {
  return typeof answer.id === 'string' && answer.id ? answer.id : 'chatcmpl-ernie';
}

function createdOf(answer: JsonObject): number {
  return typeof answer.created === 'number' ? answer.created : Math.floor(Date.now() / 1000);
}

/** A complete ERNIE chat answer as an OpenAI chat completion. */
export function openAIResponseFromErnie(answer: JsonObject, model: string): JsonObject {
  const usage = openAIUsage(ernieUsage(answer.usage));
  return {
    id: answerId(answer),
    object: 'chat.completion',
    created: createdOf(answer),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: typeof answer.result === 'string' ? answer.result : '' }, finish_reason: openAIFinishReason(answer) }],
    ...(usage ? { usage } : {}),
  };
}

/** ERNIE's embeddings answer as OpenAI's. */
export function openAIEmbeddingsFromErnie(answer: JsonObject, model: string): JsonObject {
  const data = Array.isArray(answer.data) ? (answer.data as JsonObject[]) : [];
  const usage = openAIUsage(ernieUsage(answer.usage));
  return {
    object: 'list',
    model,
    data: data.map((entry, position) => ({ object: 'embedding', index: typeof entry.index === 'number' ? entry.index : position, embedding: Array.isArray(entry.embedding) ? entry.embedding : [] })),
    ...(usage ? { usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } } : {}),
  };
}

/**
 * The error an ERNIE answer reports with status 200 (`{error_code, error_msg}`), in the
 * relay's terms (see BAIDU_ERROR_CODES), or undefined when it is no error. The message is
 * scrubbed of URLs and tokens: Baidu's messages may quote the request.
 */
export function baiduAnswerError(body: unknown): AnswerError | undefined {
  if (!isObject(body) || typeof body.error_code !== 'number' || body.error_code === 0) return undefined;
  const code = body.error_code;
  const said = typeof body.error_msg === 'string' && body.error_msg ? body.error_msg : 'Baidu answered an error';
  const message = scrubUpstreamMessage(`${said} (Baidu error ${code})`, { keys: [], baseUrl: '' });
  const among = (codes: readonly number[]) => codes.includes(code);
  if (among(BAIDU_ERROR_CODES.token) || among(BAIDU_ERROR_CODES.key)) return { status: 401, message, code: String(code) };
  if (among(BAIDU_ERROR_CODES.quota)) return { status: 429, message, code: 'insufficient_quota' };
  if (among(BAIDU_ERROR_CODES.rateLimit)) return { status: 429, message, code: String(code) };
  if (among(BAIDU_ERROR_CODES.server)) return { status: 500, message, code: String(code) };
  return { status: 400, message, code: String(code) };
}

/** Whether an ERNIE answer says its access token is invalid or expired (error 110 or 111). */
export function rejectsAccessToken(body: unknown): boolean {
  return isObject(body) && typeof body.error_code === 'number' && (BAIDU_ERROR_CODES.token as readonly number[]).includes(body.error_code);
}

/**
 * ERNIE's stream events (`{result, is_end, usage, …}`, usage a running total) as OpenAI
 * chunks, for one request. An event carrying `error_code` becomes the in-stream error chunk.
 */
export class ErnieChunkTranslator {
  private started = false;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  translate(event: JsonObject): JsonObject[] {
    const error = baiduAnswerError(event);
    if (error) return [answerErrorChunk(error)];
    this.usage.add(ernieUsage(event.usage));
    const delta: JsonObject = {};
    if (!this.started) {
      this.started = true;
      delta.role = 'assistant';
    }
    if (typeof event.result === 'string' && event.result) delta.content = event.result;
    const finish = event.is_end === true ? openAIFinishReason(event) : null;
    return [{ id: answerId(event), object: 'chat.completion.chunk', created: createdOf(event), model: this.model, choices: [{ index: 0, delta, finish_reason: finish }] }];
  }
}
