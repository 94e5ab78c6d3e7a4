import { openAIUsageOf } from '../../wire/openai-usage';
import { streamErrorChunk } from '../../wire/stream-decoder';
import type { JsonObject } from '../../wire/wire-format';
import type { AnswerReading } from '../adaptor';
import { embeddingTexts } from '../embedding-input';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * Cohere's v2 API (chat, embed, rerank) beside OpenAI's shapes, the internal ones, in both
 * directions. Rerank has no OpenAI shape: the relay's rerank route speaks Cohere's and
 * Jina's, so its conversion only maps documents and results.
 */

/** OpenAI sampling fields and their names in Cohere's chat body (data, not code). */
const RENAMED_FIELDS: Readonly<Record<string, string>> = {
  temperature: 'temperature',
  top_p: 'p',
  top_k: 'k',
  seed: 'seed',
  frequency_penalty: 'frequency_penalty',
  presence_penalty: 'presence_penalty',
};

/** Cohere's finish reasons in OpenAI's terms. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  ERROR: 'stop',
  TIMEOUT: 'length',
};

const TOOL_CHOICES: Readonly<Record<string, string>> = { required: 'REQUIRED', none: 'NONE' };

/** Cohere embeds for search by default, as the OpenAI embeddings API has no input type. */
const DEFAULT_INPUT_TYPE = 'search_document';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** A user message's content: text as it is, images as Cohere's image_url blocks (it takes URLs and data URIs). */
function userContent(content: unknown): unknown {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  const blocks: JsonObject[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') blocks.push({ type: 'text', text: part.text });
    if (part.type === 'image_url') {
      const image = part.image_url;
      const url = typeof image === 'string' ? image : isObject(image) ? image.url : undefined;
      if (typeof url === 'string') blocks.push({ type: 'image_url', image_url: { url } });
    }
  }
  return blocks;
}

function cohereMessage(message: JsonObject): JsonObject {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(message.content) };
    case 'assistant': {
      const text = textOf(message.content);
      if (!Array.isArray(message.tool_calls) || message.tool_calls.length === 0) return { role: 'assistant', content: text };
      const out: JsonObject = { role: 'assistant', tool_calls: (message.tool_calls as unknown[]).filter(isObject).map(openAIToolCall) };
      // A turn that calls tools carries its words as the plan: what the model wrote before calling (given to clients as reasoning).
      const plan = typeof message.reasoning_content === 'string' && message.reasoning_content ? message.reasoning_content : text;
      if (plan) out.tool_plan = plan;
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: textOf(message.content) };
    default:
      return { role: 'user', content: userContent(message.content) };
  }
}

/** OpenAI's tools as Cohere's (the same shape, but `parameters` is required). */
function cohereTools(tools: JsonObject[], choice: unknown): JsonObject[] {
  const named = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
  return tools
    .filter((tool) => isObject(tool.function) && (named === undefined || tool.function.name === named))
    .map((tool) => {
      const fn = tool.function as JsonObject;
      return { type: 'function', function: { name: fn.name, ...(fn.description ? { description: fn.description } : {}), parameters: fn.parameters ?? { type: 'object', properties: {} } } };
    });
}

/** An OpenAI chat body as Cohere's v2 chat body. */
export function cohereChatFromOpenAI(body: JsonObject, model: string): JsonObject {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]).filter(isObject).map(cohereMessage) : [];
  const out: JsonObject = { model, messages };
  if (body.stream === true) out.stream = true;
  for (const [from, to] of Object.entries(RENAMED_FIELDS)) if (typeof body[from] === 'number') out[to] = body[from];
  const maxTokens = tokenCount(body.max_completion_tokens ?? body.max_tokens);
  if (maxTokens) out.max_tokens = maxTokens;
  if (typeof body.stop === 'string') out.stop_sequences = [body.stop];
  else if (Array.isArray(body.stop)) out.stop_sequences = body.stop;
  const format = isObject(body.response_format) ? body.response_format : undefined;
  if (format?.type === 'json_object') out.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const schema = isObject(format.json_schema) ? format.json_schema.schema : undefined;
    out.response_format = { type: 'json_object', ...(schema ? { json_schema: schema } : {}) };
  }
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    out.tools = cohereTools(body.tools as JsonObject[], body.tool_choice);
    // Cohere cannot force one named tool: only that tool is offered, and a call required.
    const choice = isObject(body.tool_choice) ? 'REQUIRED' : TOOL_CHOICES[String(body.tool_choice)];
    if (choice) out.tool_choice = choice;
  }
  return out;
}

/**
 * Cohere's usage (`usage` of a chat, `meta` of embed and rerank) in OpenAI's sense. Cohere
 * charges `billed_units`; `tokens` also counts the prompt template it adds itself, which it
 * does not bill, so `tokens` is read only when no billed count is given (a compatible server).
 */
export function readCohereUsage(value: unknown): UsageReport | undefined {
  if (!isObject(value)) return undefined;
  for (const counts of [value.billed_units, value.tokens]) {
    if (!isObject(counts)) continue;
    const promptTokens = tokenCount(counts.input_tokens);
    const completionTokens = tokenCount(counts.output_tokens);
    if (promptTokens > 0 || completionTokens > 0) return { promptTokens, completionTokens };
  }
  return undefined;
}

/**
 * The usage of a rerank answer in Cohere's shape (Cohere, Xinference): its input tokens only.
 * Cohere bills rerank in search units (one per query of up to 100 documents), which are no
 * token count: without input tokens the relay counts the query and documents itself.
 */
export function readRerankMeta(meta: unknown): UsageReport | undefined {
  const usage = readCohereUsage(meta);
  return usage && usage.promptTokens ? { promptTokens: usage.promptTokens, completionTokens: 0 } : undefined;
}

function finishReason(reason: unknown, calledTools: boolean): string {
  if (calledTools && reason === 'COMPLETE') return 'tool_calls';
  return (typeof reason === 'string' && FINISH_REASONS[reason]) || 'stop';
}

function openAIToolCall(call: JsonObject): JsonObject {
  const fn = isObject(call.function) ? call.function : {};
  return { id: call.id, type: 'function', function: { name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' } };
}

/** A complete Cohere chat answer as an OpenAI chat completion: thinking and the tool plan as reasoning. */
export function openAIChatFromCohere(answer: JsonObject, model: string): JsonObject {
  const message = isObject(answer.message) ? answer.message : {};
  const parts = Array.isArray(message.content) ? (message.content as unknown[]).filter(isObject) : [];
  const text = parts.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
  const reasoning = [typeof message.tool_plan === 'string' ? message.tool_plan : '', ...parts.map((part) => (part.type === 'thinking' && typeof part.thinking === 'string' ? part.thinking : ''))].join('');
  const toolCalls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]).filter(isObject).map(openAIToolCall) : [];
  const out: JsonObject = { role: 'assistant', content: text || (toolCalls.length > 0 ? null : '') };
  if (reasoning) out.reasoning_content = reasoning;
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  const choice = { index: 0, message: out, finish_reason: finishReason(answer.finish_reason, toolCalls.length > 0) };
  const completion: JsonObject = { id: typeof answer.id === 'string' ? answer.id : 'chatcmpl-cohere', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [choice] };
  const usage = openAIUsageOf(readCohereUsage(answer.usage));
  if (usage) completion.usage = usage;
  return completion;
}

/** The usage and generated text of any Cohere answer (chat, embed, rerank) or chat stream event. */
export function readCohereAnswer(body: unknown): AnswerReading {
  if (!isObject(body)) return { text: '' };
  if (Array.isArray(body.results)) return { usage: readRerankMeta(body.meta), text: '' };
  if (body.meta !== undefined && body.message === undefined) return { usage: readCohereUsage(body.meta), text: '' };
  if (body.type === 'message-end') return { usage: readCohereUsage((body.delta as JsonObject | undefined)?.usage), text: '' };
  if (typeof body.type === 'string') return { text: streamEventText(body) };
  const reply = openAIChatFromCohere(body, '');
  const message = ((reply.choices as JsonObject[])[0].message ?? {}) as JsonObject;
  const calls = ((message.tool_calls ?? []) as JsonObject[]).map((call) => JSON.stringify(call.function)).join('');
  return { usage: readCohereUsage(body.usage), text: `${String(message.reasoning_content ?? '')}${String(message.content ?? '')}${calls}` };
}

/** The generated text one stream event carries. */
function streamEventText(event: JsonObject): string {
  const message = (event.delta as JsonObject | undefined)?.message as JsonObject | undefined;
  if (!message) return '';
  const content = message.content as JsonObject | undefined;
  const call = message.tool_calls as JsonObject | undefined;
  const fn = call?.function as JsonObject | undefined;
  return [content?.text, content?.thinking, message.tool_plan, fn?.name, fn?.arguments].filter((part): part is string => typeof part === 'string').join('');
}

/**
 * Cohere's chat stream events as OpenAI chunks, for one request. Tool calls are numbered in
 * the order they start; Cohere's `index` of a tool call event is mapped onto that number.
 */
export class CohereChunkTranslator {
  private readonly created = Math.floor(Date.now() / 1000);
  private id = 'chatcmpl-cohere';
  private readonly toolIndexes = new Map<number, number>();

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  translate(event: JsonObject): JsonObject[] {
    const delta = isObject(event.delta) ? event.delta : {};
    const message = isObject(delta.message) ? delta.message : {};
    switch (event.type) {
      case 'message-start':
        if (typeof event.id === 'string') this.id = event.id;
        return [this.chunk({ role: 'assistant', content: '' })];
      case 'content-start':
      case 'content-delta': {
        const content = isObject(message.content) ? message.content : {};
        const out: JsonObject = {};
        if (typeof content.text === 'string' && content.text) out.content = content.text;
        if (typeof content.thinking === 'string' && content.thinking) out.reasoning_content = content.thinking;
        return Object.keys(out).length > 0 ? [this.chunk(out)] : [];
      }
      case 'tool-plan-delta':
        return typeof message.tool_plan === 'string' && message.tool_plan ? [this.chunk({ reasoning_content: message.tool_plan })] : [];
      case 'tool-call-start': {
        const call = isObject(message.tool_calls) ? message.tool_calls : {};
        const index = this.toolIndexes.size;
        this.toolIndexes.set(Number(event.index ?? index), index);
        const fn = isObject(call.function) ? call.function : {};
        return [this.chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' } }] })];
      }
      case 'tool-call-delta': {
        const fn = isObject(message.tool_calls) && isObject(message.tool_calls.function) ? message.tool_calls.function : {};
        if (typeof fn.arguments !== 'string') return [];
        const index = this.toolIndexes.get(Number(event.index)) ?? Math.max(0, this.toolIndexes.size - 1);
        return [this.chunk({ tool_calls: [{ index, function: { arguments: fn.arguments } }] })];
      }
      case 'message-end': {
        this.usage.add(readCohereUsage(delta.usage));
        // Cohere reports a failed generation in the last event: the client gets OpenAI's in-stream error.
        if (typeof delta.error === 'string' && delta.error) return [streamErrorChunk(delta.error, 'upstream_error')];
        return [this.chunk({}, finishReason(delta.finish_reason, this.toolIndexes.size > 0))];
      }
      default:
        return [];
    }
  }

  private chunk(delta: JsonObject, finish: string | null = null): JsonObject {
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finish }] };
  }
}

/** An OpenAI embeddings body as Cohere's v2 embed body (float vectors; `input_type` may be given by the client). */
export function cohereEmbedFromOpenAI(body: JsonObject, model: string): JsonObject {
  const out: JsonObject = { model, texts: embeddingTexts(body.input), input_type: typeof body.input_type === 'string' ? body.input_type : DEFAULT_INPUT_TYPE, embedding_types: ['float'] };
  if (typeof body.dimensions === 'number') out.output_dimension = body.dimensions;
  return out;
}

/** Cohere's embed answer as OpenAI's embeddings answer. */
export function openAIEmbeddingsFromCohere(answer: JsonObject, model: string): JsonObject {
  const embeddings = isObject(answer.embeddings) && Array.isArray(answer.embeddings.float) ? (answer.embeddings.float as unknown[]) : [];
  const usage = openAIUsageOf(readCohereUsage(answer.meta));
  return {
    object: 'list',
    model,
    data: embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    ...(usage ? { usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens } } : {}),
  };
}

/** The text of each rerank document: a string, or Jina's and Cohere v1's `{text}`. */
export function rerankDocumentTexts(documents: unknown): string[] {
  if (!Array.isArray(documents)) return [];
  return documents.map((document) => (typeof document === 'string' ? document : isObject(document) && typeof document.text === 'string' ? document.text : JSON.stringify(document)));
}

/** A rerank body of the relay's route (Cohere's or Jina's shape) as Cohere's v2 rerank body, which takes strings only. */
export function cohereRerankFromClient(body: JsonObject, model: string): JsonObject {
  const out: JsonObject = { model, query: body.query, documents: rerankDocumentTexts(body.documents) };
  if (typeof body.top_n === 'number') out.top_n = body.top_n;
  if (typeof body.max_tokens_per_doc === 'number') out.max_tokens_per_doc = body.max_tokens_per_doc;
  return out;
}

/**
 * Cohere's v2 rerank answer for the client, with each result's document when the client did
 * not turn them off (Jina's default; Cohere v2 returns none, so the request's are put back).
 */
export function rerankAnswerFromCohere(answer: JsonObject, documents: readonly string[] | undefined): JsonObject {
  const results = Array.isArray(answer.results) ? (answer.results as unknown[]).filter(isObject) : [];
  return {
    ...answer,
    results: results.map((result) => {
      const text = documents?.[Number(result.index)];
      return text === undefined ? result : { ...result, document: { text } };
    }),
  };
}
