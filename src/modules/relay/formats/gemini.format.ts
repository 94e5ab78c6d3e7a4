import type { JsonObject } from '../wire/wire-format';
import { readUsage } from '../wire/openai-usage';
import { sseFrame } from '../wire/sse-decoder';
import { fullUsage, type Usage } from '../wire/usage';
import { firstChoice, type ClientStreamOptions, type InboundFormat, type StreamEncoder } from './inbound-format';

/** Gemini's generateContent / streamGenerateContent as the client's format. */
export const GEMINI_FORMAT: InboundFormat = {
  wire: 'gemini',
  toOpenAIRequest: openAIRequestFromGemini,
  fromOpenAIResponse: geminiResponseFromOpenAI,
  createStreamEncoder: (options) => new GeminiStreamEncoder(options),
};

const FINISH_REASONS: Record<string, string> = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' };
/** Google's code and status for the in-stream errors of other providers, by their type. */
const STREAM_ERRORS: Record<string, [number, string]> = { overloaded_error: [503, 'UNAVAILABLE'], rate_limit_error: [429, 'RESOURCE_EXHAUSTED'] };

/** Gemini's usageMetadata: thoughts are counted apart from the candidates. */
export function geminiUsage(usage: Usage | undefined): JsonObject {
  if (!usage) return {};
  const metadata: JsonObject = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens - usage.reasoningTokens,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
  };
  if (usage.reasoningTokens) metadata.thoughtsTokenCount = usage.reasoningTokens;
  if (usage.cachedTokens) metadata.cachedContentTokenCount = usage.cachedTokens;
  return metadata;
}

function partsText(parts: JsonObject[]): string {
  return parts.map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : '')).join('');
}

/** A Gemini body as an OpenAI chat body (the model comes from the path). */
function openAIRequestFromGemini(body: JsonObject): JsonObject {
  const messages: JsonObject[] = [];
  const system = (body.systemInstruction ?? body.system_instruction) as JsonObject | undefined;
  if (system && Array.isArray(system.parts)) messages.push({ role: 'system', content: partsText(system.parts as JsonObject[]) });
  let callCount = 0;
  const pendingCalls = new Map<string, string[]>();
  for (const content of Array.isArray(body.contents) ? (body.contents as JsonObject[]) : []) {
    const parts = Array.isArray(content.parts) ? (content.parts as JsonObject[]) : [];
    if (content.role === 'model') {
      const toolCalls = parts
        .filter((part) => part.functionCall)
        .map((part) => {
          const call = part.functionCall as JsonObject;
          const id = `call_${callCount++}`;
          pendingCalls.set(String(call.name), [...(pendingCalls.get(String(call.name)) ?? []), id]);
          return { id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
        });
      messages.push({ role: 'assistant', content: partsText(parts) || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
      continue;
    }
    const userParts: JsonObject[] = [];
    for (const part of parts) {
      if (part.functionResponse) {
        const answer = part.functionResponse as JsonObject;
        const id = pendingCalls.get(String(answer.name))?.shift() ?? String(answer.name);
        messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(answer.response ?? {}) });
      } else if (typeof part.text === 'string') {
        userParts.push({ type: 'text', text: part.text });
      } else if (part.inlineData) {
        const data = part.inlineData as JsonObject;
        userParts.push({ type: 'image_url', image_url: { url: `data:${String(data.mimeType)};base64,${String(data.data)}` } });
      }
    }
    if (userParts.length > 0) messages.push({ role: 'user', content: userParts.length === 1 && userParts[0].type === 'text' ? userParts[0].text : userParts });
  }

  const out: JsonObject = { messages };
  const config = (body.generationConfig ?? {}) as JsonObject;
  if (typeof config.temperature === 'number') out.temperature = config.temperature;
  if (typeof config.topP === 'number') out.top_p = config.topP;
  if (typeof config.maxOutputTokens === 'number') out.max_tokens = config.maxOutputTokens;
  if (Array.isArray(config.stopSequences)) out.stop = config.stopSequences;
  if (config.responseMimeType === 'application/json') {
    const schema = config.responseJsonSchema ?? (config.responseSchema !== undefined ? jsonSchemaFromGemini(config.responseSchema) : undefined);
    out.response_format = schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
  }
  const declarations = (Array.isArray(body.tools) ? (body.tools as JsonObject[]) : []).flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as JsonObject[]) : []));
  if (declarations.length > 0) {
    out.tools = declarations.map((fn) => ({ type: 'function', function: { name: fn.name, ...(fn.description ? { description: fn.description } : {}), parameters: fn.parameters !== undefined ? jsonSchemaFromGemini(fn.parameters) : (fn.parametersJsonSchema ?? { type: 'object', properties: {} }) } }));
  }
  const calling = ((body.toolConfig as JsonObject | undefined)?.functionCallingConfig ?? {}) as JsonObject;
  if (calling.mode === 'NONE') out.tool_choice = 'none';
  else if (calling.mode === 'ANY') {
    const allowed = Array.isArray(calling.allowedFunctionNames) ? calling.allowedFunctionNames : [];
    out.tool_choice = allowed.length === 1 ? { type: 'function', function: { name: allowed[0] } } : 'required';
  }
  return out;
}

/**
 * A schema in Gemini's OpenAPI form as JSON Schema, which OpenAI and Claude check strictly: the
 * SDKs' upper-case types (Type.OBJECT) in lower case, `nullable` as a null type.
 */
function jsonSchemaFromGemini(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaFromGemini);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema as JsonObject)) {
    if (keyword === 'properties' && typeof value === 'object' && value !== null) out.properties = Object.fromEntries(Object.entries(value as JsonObject).map(([name, property]) => [name, jsonSchemaFromGemini(property)]));
    else if (keyword === 'items' || keyword === 'anyOf') out[keyword] = jsonSchemaFromGemini(value);
    else if (keyword === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (keyword !== 'nullable' && keyword !== 'propertyOrdering') out[keyword] = value;
  }
  if ((schema as JsonObject).nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The parts of an OpenAI message or delta in Gemini's shape. */
function geminiParts(message: JsonObject): JsonObject[] {
  const parts: JsonObject[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) parts.push({ text: message.reasoning_content, thought: true });
  if (typeof message.content === 'string' && message.content) parts.push({ text: message.content });
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []) {
    const fn = (call.function ?? {}) as JsonObject;
    let args: unknown = {};
    try {
      args = JSON.parse(typeof fn.arguments === 'string' && fn.arguments ? fn.arguments : '{}');
    } catch {
      args = {};
    }
    parts.push({ functionCall: { name: fn.name, args } });
  }
  return parts;
}

/** An OpenAI chat completion as a Gemini answer. */
function geminiResponseFromOpenAI(answer: JsonObject, options: ClientStreamOptions): JsonObject {
  const choices = Array.isArray(answer.choices) ? (answer.choices as JsonObject[]) : [];
  return {
    candidates: choices.map((choice, index) => ({
      content: { role: 'model', parts: geminiParts((choice.message ?? {}) as JsonObject) },
      finishReason: FINISH_REASONS[String(choice.finish_reason)] ?? 'STOP',
      index,
    })),
    usageMetadata: geminiUsage(fullUsage(readUsage(answer.usage))),
    modelVersion: options.model,
    ...(typeof answer.id === 'string' ? { responseId: answer.id } : {}),
  };
}

/**
 * OpenAI chunks as Gemini's SSE stream: text goes out as it comes; a tool call goes out whole
 * once its arguments are complete (Gemini never splits one); the last chunk carries the finish
 * reason and the usage.
 */
class GeminiStreamEncoder implements StreamEncoder {
  private readonly calls: Array<{ name: string; arguments: string }> = [];
  private finishReason = 'STOP';
  private failed = false;

  constructor(private readonly options: ClientStreamOptions) {}

  encode(chunk: JsonObject): string {
    if (chunk.error) return this.error(chunk.error as JsonObject);
    const choice = firstChoice(chunk);
    if (!choice) return '';
    const delta = (choice.delta ?? {}) as JsonObject;
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as JsonObject[]) : []) {
      const index = typeof call.index === 'number' ? call.index : this.calls.length;
      const fn = (call.function ?? {}) as JsonObject;
      const entry = (this.calls[index] ??= { name: '', arguments: '' });
      if (typeof fn.name === 'string') entry.name = fn.name;
      if (typeof fn.arguments === 'string') entry.arguments += fn.arguments;
    }
    if (typeof choice.finish_reason === 'string') this.finishReason = FINISH_REASONS[choice.finish_reason] ?? 'STOP';
    const parts = geminiParts({ content: delta.content, reasoning_content: delta.reasoning_content });
    return parts.length > 0 ? this.frame(parts) : '';
  }

  end(usage: Usage | undefined): string {
    if (this.failed) return '';
    const calls = this.calls.filter(Boolean).map((call) => ({ function: { name: call.name, arguments: call.arguments } }));
    return this.frame(geminiParts({ tool_calls: calls }), { finishReason: this.finishReason }, { usageMetadata: geminiUsage(usage) });
  }

  /** An in-stream error (OpenAI's error chunk) as Google's, which its clients throw on; the stream ends there. */
  private error(error: JsonObject): string {
    this.failed = true;
    const type = String(error.type);
    const [code, status] = STREAM_ERRORS[type] ?? (/^[A-Z_]+$/.test(type) ? [typeof error.code === 'number' ? error.code : 500, type] : [500, 'INTERNAL']);
    return sseFrame(JSON.stringify({ error: { code, message: typeof error.message === 'string' ? error.message : 'The upstream stream failed', status } }));
  }

  private frame(parts: JsonObject[], candidateExtra: JsonObject = {}, answerExtra: JsonObject = {}): string {
    return sseFrame(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...candidateExtra }], modelVersion: this.options.model, ...answerExtra }));
  }
}
