import type { JsonObject } from '../../wire/wire-format';
import { streamErrorChunk, type StreamDecoder } from '../../wire/stream-decoder';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import { openAIChatCompletion, openAIMessageText } from '../../wire/openai-answer';
import { readUsage } from '../../wire/openai-usage';

/**
 * The reverse of the Responses inbound format: a chat for a model that answers only on OpenAI's
 * Responses API (o1-pro, the codex models, a channel marked `responses_only`) goes up as a
 * Responses request, and the Response (or its typed events) comes back as a chat completion
 * (or its chunks). Nothing is stored upstream (`store: false`), as Chat never stores.
 */

/** A chat message's content as Responses input parts (text and images). */
function inputParts(content: unknown, role: string): unknown {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const textType = role === 'assistant' ? 'output_text' : 'input_text';
  const parts: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text') parts.push({ type: textType, text: String(part.text ?? '') });
    else if (part?.type === 'image_url') {
      const image = (part.image_url ?? {}) as JsonObject;
      parts.push({ type: 'input_image', image_url: String(image.url ?? ''), detail: typeof image.detail === 'string' ? image.detail : 'auto' });
    }
  }
  return parts;
}

/** Chat messages as Responses input items; the leading system messages become `instructions`. */
function inputItems(messages: JsonObject[]): { instructions: string; input: JsonObject[] } {
  const system: string[] = [];
  const input: JsonObject[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const role = String(message.role);
    if ((role === 'system' || role === 'developer') && input.length === 0) {
      system.push(openAIMessageText(message.content));
    } else if (role === 'tool') {
      input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: openAIMessageText(message.content) });
    } else if (role === 'assistant') {
      const text = openAIMessageText(message.content);
      if (text) input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
      for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []) {
        const fn = (call.function ?? {}) as JsonObject;
        input.push({ type: 'function_call', call_id: call.id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' });
      }
    } else {
      input.push({ type: 'message', role: role === 'system' || role === 'developer' ? role : 'user', content: inputParts(message.content, role) });
    }
  }
  return { instructions: system.join('\n\n'), input };
}

/** An OpenAI chat body as a Responses body for the upstream model. */
export function responsesRequestFromChat(body: JsonObject, upstreamModel: string): JsonObject {
  const { instructions, input } = inputItems(Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []);
  const out: JsonObject = { model: upstreamModel, input, store: false };
  if (instructions) out.instructions = instructions;
  if (body.stream === true) out.stream = true;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (typeof maxTokens === 'number') out.max_output_tokens = maxTokens;
  for (const field of ['temperature', 'top_p', 'parallel_tool_calls', 'user', 'metadata'] as const) if (body[field] !== undefined && body[field] !== null) out[field] = body[field];
  if (Array.isArray(body.tools)) {
    out.tools = (body.tools as JsonObject[])
      .filter((tool) => tool?.type === 'function')
      .map((tool) => {
        const fn = (tool.function ?? {}) as JsonObject;
        return { type: 'function', name: fn.name, ...(fn.description !== undefined ? { description: fn.description } : {}), parameters: fn.parameters ?? { type: 'object', properties: {} }, ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}) };
      });
  }
  const choice = body.tool_choice as JsonObject | string | undefined;
  if (typeof choice === 'string') out.tool_choice = choice;
  else if (choice?.type === 'function') out.tool_choice = { type: 'function', name: (choice.function as JsonObject | undefined)?.name };
  if (typeof body.reasoning_effort === 'string') out.reasoning = { effort: body.reasoning_effort };
  const format = body.response_format as JsonObject | undefined;
  if (format?.type === 'json_schema') {
    const schema = (format.json_schema ?? {}) as JsonObject;
    out.text = { format: { type: 'json_schema', name: schema.name ?? 'response', schema: schema.schema, ...(typeof schema.strict === 'boolean' ? { strict: schema.strict } : {}), ...(typeof schema.description === 'string' ? { description: schema.description } : {}) } };
  } else if (format?.type === 'json_object') out.text = { format: { type: 'json_object' } };
  return out;
}

function summaryText(item: JsonObject): string {
  const summary = Array.isArray(item.summary) ? (item.summary as JsonObject[]) : [];
  return summary.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** A Response as a chat completion: its messages' text, reasoning summaries and tool calls. */
export function chatCompletionFromResponse(body: unknown, model: string): JsonObject {
  const response = (typeof body === 'object' && body !== null ? body : {}) as JsonObject;
  let content = '';
  let reasoning = '';
  const toolCalls: JsonObject[] = [];
  for (const item of Array.isArray(response.output) ? (response.output as JsonObject[]) : []) {
    if (item.type === 'message') {
      for (const part of Array.isArray(item.content) ? (item.content as JsonObject[]) : []) content += typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : '';
    } else if (item.type === 'reasoning') reasoning += summaryText(item);
    else if (item.type === 'function_call') toolCalls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : '{}' } });
    else if (item.type === 'custom_tool_call') toolCalls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: JSON.stringify({ input: item.input ?? '' }) } });
  }
  const message: JsonObject = { role: 'assistant', content: content || (toolCalls.length ? null : '') };
  if (reasoning) message.reasoning_content = reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  const finishReason = toolCalls.length ? 'tool_calls' : response.status === 'incomplete' ? 'length' : 'stop';
  const answer = openAIChatCompletion(typeof response.id === 'string' ? response.id : 'resp_gateway', model, [{ index: 0, message, finish_reason: finishReason }], readUsage(response.usage));
  if (typeof response.created_at === 'number') answer.created = response.created_at;
  return answer;
}

/**
 * Per request: Responses' typed events as chat chunks. Text, reasoning summaries and function
 * call arguments stream as deltas; response.completed (or .incomplete) brings the finish
 * reason and the usage; response.failed and error events become the in-stream error chunk.
 */
export function createResponsesEventDecoder(model: string, usage: UsageMeter): StreamDecoder {
  let id = 'resp_gateway';
  let created = Math.floor(Date.now() / 1000);
  const toolIndexes = new Map<string, number>();
  const chunk = (delta: JsonObject, finishReason: string | null = null): JsonObject => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  return new SseJsonDecoder((event) => {
    switch (event.type) {
      case 'response.created': {
        const response = (event.response ?? {}) as JsonObject;
        if (typeof response.id === 'string') id = response.id;
        if (typeof response.created_at === 'number') created = response.created_at;
        return [chunk({ role: 'assistant', content: '' })];
      }
      case 'response.output_text.delta':
        return typeof event.delta === 'string' && event.delta ? [chunk({ content: event.delta })] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return typeof event.delta === 'string' && event.delta ? [chunk({ reasoning_content: event.delta })] : [];
      case 'response.output_item.added': {
        const item = (event.item ?? {}) as JsonObject;
        if (item.type !== 'function_call') return [];
        const index = toolIndexes.size;
        toolIndexes.set(String(item.id), index);
        return [chunk({ tool_calls: [{ index, id: item.call_id, type: 'function', function: { name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : '' } }] })];
      }
      case 'response.function_call_arguments.delta': {
        const index = toolIndexes.get(String(event.item_id));
        return index === undefined || typeof event.delta !== 'string' ? [] : [chunk({ tool_calls: [{ index, function: { arguments: event.delta } }] })];
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = (event.response ?? {}) as JsonObject;
        usage.add(readUsage(response.usage));
        const finishReason = toolIndexes.size > 0 ? 'tool_calls' : event.type === 'response.incomplete' ? 'length' : 'stop';
        return [chunk({}, finishReason)];
      }
      case 'response.failed': {
        const error = (((event.response ?? {}) as JsonObject).error ?? {}) as JsonObject;
        return [streamErrorChunk(error.message, error.code)];
      }
      case 'error':
        return [streamErrorChunk(event.message, event.code)];
      default:
        return [];
    }
  });
}
