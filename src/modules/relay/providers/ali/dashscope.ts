import { openAIUsageOf, readUsage } from '../../wire/openai-usage';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError, type AnswerReading } from '../adaptor';
import { openAIAnswerText, openAIChatCompletion, openAIMessageText } from '../../wire/openai-answer';
import type { UsageMeter } from '../../wire/usage';

/**
 * Alibaba's DashScope API (text-generation with `result_format: message`, text-embedding)
 * beside OpenAI's formats, in both directions. Usage is `{input_tokens, output_tokens,
 * total_tokens}` (with OpenAI-style details), running totals in a stream.
 */

/** OpenAI's chat fields by the `parameters` member DashScope names them (max_completion_tokens is OpenAI's newer max_tokens). */
const PARAMETER_NAMES: Readonly<Record<string, string>> = {
  max_tokens: 'max_tokens',
  max_completion_tokens: 'max_tokens',
  temperature: 'temperature',
  top_p: 'top_p',
  seed: 'seed',
  stop: 'stop',
  n: 'n',
  presence_penalty: 'presence_penalty',
  response_format: 'response_format',
  logprobs: 'logprobs',
  top_logprobs: 'top_logprobs',
  tools: 'tools',
  tool_choice: 'tool_choice',
  parallel_tool_calls: 'parallel_tool_calls',
  // DashScope's own, which clients send beside OpenAI's fields (extra_body).
  top_k: 'top_k',
  repetition_penalty: 'repetition_penalty',
  enable_search: 'enable_search',
  enable_thinking: 'enable_thinking',
  thinking_budget: 'thinking_budget',
};

/** The ranges DashScope accepts (top_p in (0, 1), temperature in [0, 2)): values outside are clamped, as new-api does for top_p. */
const PARAMETER_RANGES: Readonly<Record<string, { min: number; max: number }>> = {
  top_p: { min: 0.001, max: 0.999 },
  temperature: { min: 0, max: 1.99 },
};

/** DashScope's error codes in the relay's terms (its status-code reference); a code beginning with a prefix listed takes its status. */
const DASHSCOPE_ERRORS: Readonly<Record<string, { status: number; code?: string }>> = {
  InvalidApiKey: { status: 401 },
  // OpenAI-compatible mode's name for it.
  invalid_api_key: { status: 401 },
  // The account is in arrears: an exhausted account, with OpenAI's 429 so that another channel answers.
  Arrearage: { status: 429, code: 'insufficient_quota' },
};
const DASHSCOPE_ERROR_PREFIXES: ReadonlyArray<readonly [string, number]> = [
  ['Throttling', 429],
  ['InternalError', 500],
];

/** A DashScope error (`{code, message, request_id}`) in the relay's terms; unknown codes keep the answer's status (400 inside a 200). */
export function dashScopeError(code: unknown, message: unknown, status: number): AnswerError {
  const name = String(code);
  const known = DASHSCOPE_ERRORS[name];
  const prefixed = DASHSCOPE_ERROR_PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1];
  const text = typeof message === 'string' && message ? message : `DashScope refused the request (${name})`;
  return { status: known?.status ?? prefixed ?? (status >= 400 ? status : 400), message: text, code: known?.code ?? name };
}

/** The error a DashScope body names, in either shape (native `{code, message}`, compatible mode's `{error: {code, message}}`), or undefined. */
export function dashScopeBodyError(body: unknown, status: number): AnswerError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const answer = body as JsonObject;
  const error = typeof answer.error === 'object' && answer.error !== null ? (answer.error as JsonObject) : answer;
  if (typeof error.code !== 'string' || !error.code || 'output' in answer) return undefined;
  return dashScopeError(error.code, error.message, status);
}

/** Whether a body is a DashScope answer (`output`), not an OpenAI one. */
export function isDashScopeAnswer(body: unknown): body is JsonObject {
  return typeof body === 'object' && body !== null && typeof (body as JsonObject).output === 'object' && !Array.isArray((body as JsonObject).output);
}

/** One OpenAI message as DashScope's: text content (text-generation takes no images), tool calls and results kept. */
function dashScopeMessage(message: JsonObject): JsonObject {
  const converted: JsonObject = { role: message.role, content: openAIMessageText(message.content) };
  if (Array.isArray(message.tool_calls)) converted.tool_calls = message.tool_calls;
  if (typeof message.tool_call_id === 'string') converted.tool_call_id = message.tool_call_id;
  if (typeof message.name === 'string') converted.name = message.name;
  return converted;
}

/** An OpenAI chat body as a text-generation body: messages in `input`, the rest in `parameters`, answers as messages (incremental in a stream). */
export function dashScopeRequestFromOpenAI(body: JsonObject, model: string, stream: boolean): JsonObject {
  const parameters: JsonObject = { result_format: 'message' };
  for (const [name, parameter] of Object.entries(PARAMETER_NAMES)) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    const range = PARAMETER_RANGES[name];
    parameters[parameter] = range && typeof value === 'number' ? Math.min(range.max, Math.max(range.min, value)) : value;
  }
  if (stream) parameters.incremental_output = true;
  const messages = Array.isArray(body.messages) ? (body.messages as JsonObject[]).map(dashScopeMessage) : [];
  return { model, input: { messages }, parameters };
}

/** DashScope's finish_reason, which a stream writes as the string "null" until the end. */
function finishReason(reason: unknown): string | null {
  return typeof reason === 'string' && reason !== 'null' && reason !== '' ? reason : null;
}

function outputChoices(answer: JsonObject): JsonObject[] {
  const output = (answer.output ?? {}) as JsonObject;
  if (Array.isArray(output.choices)) return output.choices as JsonObject[];
  // result_format "text" (an older default): the text and finish reason on output itself.
  return typeof output.text === 'string' ? [{ message: { role: 'assistant', content: output.text }, finish_reason: output.finish_reason }] : [];
}

/** A DashScope message's fields as an OpenAI message or delta carries them. */
function openAIMessageFields(message: JsonObject): JsonObject {
  const fields: JsonObject = {};
  if (typeof message.content === 'string') fields.content = message.content;
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) fields.reasoning_content = message.reasoning_content;
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) fields.tool_calls = message.tool_calls;
  return fields;
}

/** The usage and text of a complete DashScope answer (chat or embeddings). */
export function readDashScopeAnswer(answer: JsonObject): AnswerReading {
  return { usage: readUsage(answer.usage), text: openAIAnswerText({ choices: outputChoices(answer) }) };
}

/** A complete text-generation answer as an OpenAI chat completion. */
export function openAIResponseFromDashScope(answer: JsonObject, model: string): JsonObject {
  const choices = outputChoices(answer).map((choice, index) => {
    const fields = openAIMessageFields((choice.message ?? {}) as JsonObject);
    // A message that only calls tools has no content, as OpenAI writes it (DashScope writes "").
    const content = fields.tool_calls && !fields.content ? null : (fields.content ?? '');
    return { index, message: { role: 'assistant', ...fields, content }, finish_reason: finishReason(choice.finish_reason) ?? 'stop' };
  });
  return openAIChatCompletion(typeof answer.request_id === 'string' ? answer.request_id : 'chatcmpl-dashscope', model, choices, readUsage(answer.usage));
}

/**
 * DashScope's stream events (each a whole answer of the increment, usage running totals; an
 * `event:error` carries `{code, message}` instead) as OpenAI chunks, for one request.
 */
export class DashScopeChunkTranslator {
  private readonly created = Math.floor(Date.now() / 1000);
  private started = false;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  translate(event: JsonObject): JsonObject[] {
    const error = dashScopeBodyError(event, 200);
    if (error) return [answerErrorChunk(error)];
    this.usage.add(readUsage(event.usage));
    const choice = outputChoices(event)[0];
    if (!choice) return [];
    const delta = openAIMessageFields((choice.message ?? {}) as JsonObject);
    if (Array.isArray(delta.tool_calls)) delta.tool_calls = (delta.tool_calls as JsonObject[]).map((call, index) => ({ index, ...call }));
    if (!this.started) {
      this.started = true;
      delta.role = 'assistant';
    }
    const id = typeof event.request_id === 'string' ? event.request_id : 'chatcmpl-dashscope';
    return [{ id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason(choice.finish_reason) }] }];
  }
}

/** An OpenAI embeddings body as a text-embedding body. */
export function dashScopeEmbeddingsFromOpenAI(body: JsonObject, model: string): JsonObject {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const parameters: JsonObject = {};
  if (typeof body.dimensions === 'number') parameters.dimension = body.dimensions;
  return { model, input: { texts: inputs.map((input) => String(input)) }, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/** A text-embedding answer as OpenAI's embeddings answer, in input order (all tokens are input). */
export function openAIEmbeddingsFromDashScope(answer: JsonObject, model: string): JsonObject {
  const embeddings = Array.isArray((answer.output as JsonObject | undefined)?.embeddings) ? ((answer.output as JsonObject).embeddings as JsonObject[]) : [];
  const usage = openAIUsageOf(readUsage(answer.usage));
  return {
    object: 'list',
    model,
    data: embeddings
      .map((embedding, index) => ({ object: 'embedding', index: typeof embedding.text_index === 'number' ? embedding.text_index : index, embedding: embedding.embedding ?? [] }))
      .sort((a, b) => a.index - b.index),
    ...(usage ? { usage } : {}),
  };
}
