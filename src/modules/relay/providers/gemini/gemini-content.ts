import { randomBytes } from 'node:crypto';
import { openAIUsageOf } from '../../wire/openai-usage';
import { streamErrorChunk } from '../../wire/stream-decoder';
import type { JsonObject } from '../../wire/wire-format';
import type { AnswerReading } from '../adaptor';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * Gemini's generateContent format beside OpenAI's chat format (the internal shape), in both
 * directions, shared by the Gemini and Vertex channels and the inbound Gemini endpoints.
 */

/** An image the request carries, inline: Gemini takes no plain URLs, so the adaptor fetches them first. */
export interface InlineImage {
  mimeType: string;
  data: string;
}

/** Fetches an image URL for inlining (through the outbound guard, size-limited). */
export type ImageFetcher = (url: string) => Promise<InlineImage>;

export interface GeminiRequestOptions {
  /** Safety settings for each harm category. */
  safetySettings: Array<{ category: string; threshold: string }>;
}

const FINISH_REASONS: Record<string, string> = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter', RECITATION: 'content_filter', PROHIBITED_CONTENT: 'content_filter', BLOCKLIST: 'content_filter', SPII: 'content_filter' };

/** An OpenAI finish_reason for a Gemini finishReason (a function call finishes with STOP). */
export function openAIFinishReason(reason: unknown, calledTools: boolean): string | null {
  if (typeof reason !== 'string') return null;
  if (calledTools && reason === 'STOP') return 'tool_calls';
  return FINISH_REASONS[reason] ?? 'stop';
}

/** Gemini's usageMetadata in OpenAI's sense: thoughts count as completion tokens, as OpenAI counts reasoning. */
export function readGeminiUsage(value: unknown): UsageReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as JsonObject;
  const thoughts = tokenCount(usage.thoughtsTokenCount);
  return {
    promptTokens: tokenCount(usage.promptTokenCount),
    completionTokens: tokenCount(usage.candidatesTokenCount) + thoughts,
    cachedTokens: tokenCount(usage.cachedContentTokenCount),
    reasoningTokens: thoughts,
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as JsonObject[]).map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

function parseArguments(text: unknown): JsonObject {
  try {
    const parsed = JSON.parse(typeof text === 'string' && text ? text : '{}') as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as JsonObject) : {};
  } catch {
    return {};
  }
}

async function userParts(content: unknown, fetchImage: ImageFetcher): Promise<JsonObject[]> {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) return [];
  const parts: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text });
    if (part?.type !== 'image_url') continue;
    const imageUrl = part.image_url as JsonObject | string | undefined;
    const url = typeof imageUrl === 'string' ? imageUrl : imageUrl?.url;
    if (typeof url !== 'string') continue;
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    parts.push({ inlineData: data ? { mimeType: data[1], data: data[2] } : await fetchImage(url) });
  }
  return parts;
}

function pushTurn(contents: JsonObject[], role: string, parts: JsonObject[]): void {
  if (parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last?.role === role) (last.parts as JsonObject[]).push(...parts);
  else contents.push({ role, parts });
}

const TOOL_MODES: Record<string, string> = { auto: 'AUTO', required: 'ANY', none: 'NONE' };
/** Google's stand-in thought signature for function calls Gemini did not make itself (another model's, a client's). */
const FOREIGN_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** An OpenAI chat body as a Gemini generateContent body (the model goes in the URL). */
export async function geminiRequestFromOpenAI(body: JsonObject, options: GeminiRequestOptions, fetchImage: ImageFetcher): Promise<JsonObject> {
  const system: string[] = [];
  const contents: JsonObject[] = [];
  // Gemini names the function a result answers; OpenAI names the call's id.
  const callNames = new Map<string, string>();
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    if (typeof message !== 'object' || message === null) continue;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(textOf(message.content));
        break;
      case 'assistant': {
        const parts: JsonObject[] = [];
        const text = textOf(message.content);
        if (text) parts.push({ text });
        for (const [index, call] of (Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []).entries()) {
          const fn = (call.function ?? {}) as JsonObject;
          callNames.set(String(call.id), String(fn.name));
          // Gemini 3 refuses a step's first function call without a thought signature; history from elsewhere has none, so it gets the one Google documents for that.
          parts.push({ functionCall: { name: fn.name, args: parseArguments(fn.arguments) }, ...(index === 0 ? { thoughtSignature: FOREIGN_THOUGHT_SIGNATURE } : {}) });
        }
        pushTurn(contents, 'model', parts);
        break;
      }
      case 'tool':
        pushTurn(contents, 'user', [{ functionResponse: { name: callNames.get(String(message.tool_call_id)) ?? String(message.tool_call_id), response: { content: textOf(message.content) } } }]);
        break;
      default:
        pushTurn(contents, 'user', await userParts(message.content, fetchImage));
    }
  }

  const out: JsonObject = { contents, safetySettings: options.safetySettings };
  if (system.length > 0) out.systemInstruction = { parts: [{ text: system.join('\n') }] };
  const config: JsonObject = {};
  if (typeof body.temperature === 'number') config.temperature = body.temperature;
  if (typeof body.top_p === 'number') config.topP = body.top_p;
  const maxTokens = tokenCount(body.max_completion_tokens ?? body.max_tokens);
  if (maxTokens) config.maxOutputTokens = maxTokens;
  if (typeof body.stop === 'string') config.stopSequences = [body.stop];
  else if (Array.isArray(body.stop)) config.stopSequences = body.stop;
  const format = body.response_format as JsonObject | undefined;
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = (format.json_schema as JsonObject | undefined)?.schema;
    if (format.type === 'json_schema' && schema) config.responseSchema = geminiSchema(schema);
  }
  if (Object.keys(config).length > 0) out.generationConfig = config;
  if (Array.isArray(body.tools)) {
    const declarations = (body.tools as JsonObject[]).map((tool) => {
      const fn = (tool.function ?? {}) as JsonObject;
      const parameters = geminiSchema(fn.parameters) as JsonObject | undefined;
      // Gemini refuses an OBJECT without properties: a function without parameters declares none.
      const declared = parameters && !(isObject(parameters.properties) && Object.keys(parameters.properties).length === 0);
      return { name: fn.name, ...(fn.description ? { description: fn.description } : {}), ...(declared ? { parameters } : {}) };
    });
    out.tools = [{ functionDeclarations: declarations }];
  }
  const choice = body.tool_choice;
  if (typeof choice === 'string' && TOOL_MODES[choice]) out.toolConfig = { functionCallingConfig: { mode: TOOL_MODES[choice] } };
  else if (typeof choice === 'object' && choice !== null) {
    out.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [((choice as JsonObject).function as JsonObject | undefined)?.name] } };
  }
  return out;
}

/** The JSON Schema keywords of Gemini's schemas (an OpenAPI subset): it refuses any other (additionalProperties, $schema, …) with a 400. */
const GEMINI_SCHEMA_KEYWORDS = new Set(['anyOf', 'default', 'description', 'enum', 'example', 'format', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength', 'minProperties', 'minimum', 'nullable', 'pattern', 'properties', 'propertyOrdering', 'required', 'title', 'type']);
const MAX_SCHEMA_DEPTH = 64;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An OpenAI client's JSON Schema (tool parameters, response_format) as Gemini takes it: only
 * its keywords, `type: [T, "null"]` as `nullable`, `const` as an enum, `oneOf` as `anyOf`.
 */
export function geminiSchema(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return schema;
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) if (GEMINI_SCHEMA_KEYWORDS.has(keyword)) out[keyword] = value;
  if (Array.isArray(schema.type)) {
    const types = (schema.type as unknown[]).filter((type) => type !== 'null');
    if (types.length < schema.type.length) out.nullable = true;
    out.type = types[0];
  }
  if (schema.const !== undefined && out.enum === undefined) out.enum = [schema.const];
  if (Array.isArray(schema.oneOf) && out.anyOf === undefined) out.anyOf = schema.oneOf;
  if (isObject(out.properties)) out.properties = Object.fromEntries(Object.entries(out.properties).map(([name, property]) => [name, geminiSchema(property, depth + 1)]));
  if (out.items !== undefined) out.items = geminiSchema(out.items, depth + 1);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((option) => geminiSchema(option, depth + 1));
  return out;
}

/**
 * What a Gemini answer's tool call ids start with. Gemini names no call (its functionCall has an
 * id only on some APIs), but OpenAI's and Claude's clients match results to calls by id across
 * the whole conversation: Claude Code drops a tool_use whose id an earlier turn used, and loops.
 * So the ids are unique per answer: its responseId, else a random one.
 */
function toolCallIdBase(answer: JsonObject): string {
  return typeof answer.responseId === 'string' && answer.responseId ? answer.responseId : randomBytes(8).toString('hex');
}

/** The parts of a candidate's content as an OpenAI message delta (text, thoughts, tool calls). */
function candidateDelta(candidate: JsonObject, firstToolIndex: number, idBase: string): { delta: JsonObject; toolCalls: number } {
  let text = '';
  let thinking = '';
  const toolCalls: JsonObject[] = [];
  const parts = ((candidate.content as JsonObject | undefined)?.parts ?? []) as JsonObject[];
  for (const part of parts) {
    if (typeof part.text === 'string') {
      if (part.thought === true) thinking += part.text;
      else text += part.text;
    } else if (part.functionCall) {
      const call = part.functionCall as JsonObject;
      const index = firstToolIndex + toolCalls.length;
      const id = typeof call.id === 'string' && call.id ? call.id : `call_${idBase}_${index}`;
      toolCalls.push({ index, id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } });
    }
  }
  const delta: JsonObject = {};
  if (text) delta.content = text;
  if (thinking) delta.reasoning_content = thinking;
  if (toolCalls.length) delta.tool_calls = toolCalls;
  return { delta, toolCalls: toolCalls.length };
}

/** A complete Gemini answer as an OpenAI chat completion. */
export function openAIResponseFromGemini(answer: JsonObject, model: string): JsonObject {
  const candidates = Array.isArray(answer.candidates) && answer.candidates.length > 0 ? (answer.candidates as JsonObject[]) : blockedCandidates(answer);
  const idBase = toolCallIdBase(answer);
  const choices = candidates.map((candidate, index) => {
    const { delta, toolCalls } = candidateDelta(candidate, 0, idBase);
    const message: JsonObject = { role: 'assistant', content: typeof delta.content === 'string' ? delta.content : toolCalls ? null : '' };
    if (delta.reasoning_content) message.reasoning_content = delta.reasoning_content;
    if (toolCalls) message.tool_calls = (delta.tool_calls as JsonObject[]).map(({ index: _index, ...call }) => call);
    return { index, message, finish_reason: openAIFinishReason(candidate.finishReason, toolCalls > 0) ?? 'stop' };
  });
  const usage = openAIUsageOf(readGeminiUsage(answer.usageMetadata));
  return {
    id: typeof answer.responseId === 'string' ? answer.responseId : 'chatcmpl-gemini',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices,
    ...(usage ? { usage } : {}),
  };
}

/**
 * A prompt Gemini blocked comes back without candidates (promptFeedback.blockReason): one empty
 * candidate finished by SAFETY stands for it, so clients get a content_filter choice, as
 * OpenAI answers, rather than no choice at all.
 */
function blockedCandidates(answer: JsonObject): JsonObject[] {
  const feedback = answer.promptFeedback as JsonObject | undefined;
  return typeof feedback?.blockReason === 'string' ? [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY' }] : [];
}

/** The usage and text of a complete Gemini answer (or of one stream chunk). */
export function readGeminiAnswer(body: unknown): AnswerReading {
  if (typeof body !== 'object' || body === null) return { text: '' };
  const answer = body as JsonObject;
  return { usage: readGeminiUsage(answer.usageMetadata), text: geminiText(answer) };
}

/** The text of a Gemini answer or stream chunk, for local counting when usage is missing. */
export function geminiText(answer: JsonObject): string {
  let text = '';
  for (const candidate of Array.isArray(answer.candidates) ? (answer.candidates as JsonObject[]) : []) {
    for (const part of ((candidate.content as JsonObject | undefined)?.parts ?? []) as JsonObject[]) {
      if (typeof part.text === 'string') text += part.text;
      if (part.functionCall) text += JSON.stringify(part.functionCall);
    }
  }
  return text;
}

/**
 * Gemini stream chunks (each a whole GenerateContentResponse, usage running totals) as OpenAI
 * chunks, for one request. Tool calls are numbered across the stream, their ids unique to the answer.
 */
export class GeminiChunkTranslator {
  private readonly created = Math.floor(Date.now() / 1000);
  private toolCalls = 0;
  private started = false;
  private toolCallIds?: string;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  translate(answer: JsonObject): JsonObject[] {
    if (typeof answer.error === 'object' && answer.error !== null) {
      // Google's in-stream error ({error:{code, message, status}}) as OpenAI's in-stream error chunk.
      const error = answer.error as JsonObject;
      return [streamErrorChunk(error.message, error.status, typeof error.code === 'number' ? error.code : null)];
    }
    this.usage.add(readGeminiUsage(answer.usageMetadata));
    const candidate = Array.isArray(answer.candidates) && answer.candidates.length > 0 ? (answer.candidates as JsonObject[])[0] : blockedCandidates(answer)[0];
    if (!candidate) return [];
    this.toolCallIds ??= toolCallIdBase(answer);
    const { delta, toolCalls } = candidateDelta(candidate, this.toolCalls, this.toolCallIds);
    this.toolCalls += toolCalls;
    if (!this.started) {
      this.started = true;
      delta.role = 'assistant';
    }
    const finish = openAIFinishReason(candidate.finishReason, this.toolCalls > 0);
    const id = typeof answer.responseId === 'string' ? answer.responseId : 'chatcmpl-gemini';
    return [{ id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finish }] }];
  }
}

/** An OpenAI embeddings body as Gemini's batchEmbedContents body. */
export function geminiEmbeddingsFromOpenAI(body: JsonObject, model: string): JsonObject {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const dimensions = typeof body.dimensions === 'number' ? { outputDimensionality: body.dimensions } : {};
  return { requests: inputs.map((input) => ({ model: `models/${model}`, content: { parts: [{ text: String(input) }] }, ...dimensions })) };
}

/** Gemini's batchEmbedContents answer as OpenAI's embeddings answer. */
export function openAIEmbeddingsFromGemini(answer: JsonObject, model: string): JsonObject {
  const embeddings = Array.isArray(answer.embeddings) ? (answer.embeddings as JsonObject[]) : [];
  return { object: 'list', model, data: embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding: embedding.values ?? [] })) };
}
