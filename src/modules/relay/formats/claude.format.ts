import type { JsonObject } from '../wire/wire-format';
import { readUsage } from '../wire/openai-usage';
import { sseFrame } from '../wire/sse-decoder';
import { RelayError } from '../relay-error';
import { fullUsage, type Usage } from '../wire/usage';
import { firstChoice, type ClientStreamOptions, type InboundFormat, type StreamEncoder } from './inbound-format';

/** Claude Messages (POST /v1/messages) as the client's format. */
export const CLAUDE_FORMAT: InboundFormat = {
  wire: 'claude',
  toOpenAIRequest: openAIRequestFromClaude,
  fromOpenAIResponse: claudeResponseFromOpenAI,
  createStreamEncoder: (options) => new ClaudeStreamEncoder(options),
};

const STOP_REASONS: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', function_call: 'tool_use', content_filter: 'refusal' };

function stopReasonOf(finishReason: unknown): string {
  return typeof finishReason === 'string' ? (STOP_REASONS[finishReason] ?? 'end_turn') : 'end_turn';
}

/** Claude's usage object: input_tokens leaves out the cached and cache-written tokens. */
export function claudeUsage(usage: Usage | undefined): JsonObject {
  if (!usage) return { input_tokens: 0, output_tokens: 0 };
  return {
    input_tokens: Math.max(0, usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens),
    output_tokens: usage.completionTokens,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
  };
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return (value as JsonObject[]).map((block) => (typeof block?.text === 'string' ? block.text : '')).join('');
}

/** A Claude image block as an OpenAI image_url part. */
function imagePart(block: JsonObject): JsonObject | undefined {
  const source = (block.source ?? {}) as JsonObject;
  if (source.type === 'base64') return { type: 'image_url', image_url: { url: `data:${String(source.media_type)};base64,${String(source.data)}` } };
  if (source.type === 'url' && typeof source.url === 'string') return { type: 'image_url', image_url: { url: source.url } };
  return undefined;
}

const TOOL_CHOICES: Record<string, unknown> = { auto: 'auto', any: 'required', none: 'none' };

/**
 * A Claude tool as an OpenAI function tool. Tools with a type (web_search_…, code_execution_…,
 * bash_…, text_editor_…, computer_…) are Anthropic's own, run by Anthropic or defined by its
 * schema: a channel of another format has none, so they are refused by name rather than
 * offered to a model that would call a function nobody runs.
 */
function functionToolOf(tool: JsonObject): JsonObject {
  if (tool.type !== undefined && tool.type !== 'custom') {
    throw new RelayError('invalid_request', `The tool ${String(tool.type)} is Anthropic's own; this channel converts Claude's Messages into another format, which has no such tool: declare it with an input_schema, or use a Claude channel`, 400);
  }
  return { type: 'function', function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.input_schema ?? { type: 'object', properties: {} } } };
}

/** A Claude Messages body as an OpenAI chat body. */
function openAIRequestFromClaude(body: JsonObject): JsonObject {
  const messages: JsonObject[] = [];
  // A system prompt in blocks keeps them apart, as Claude reads them.
  const system = Array.isArray(body.system) ? (body.system as JsonObject[]).map((block) => text([block])).filter(Boolean).join('\n') : text(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    if (typeof message !== 'object' || message === null) continue;
    if (typeof message.content === 'string') {
      messages.push({ role: message.role, content: message.content });
      continue;
    }
    const blocks = Array.isArray(message.content) ? (message.content as JsonObject[]) : [];
    if (message.role === 'assistant') {
      const toolCalls = blocks
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } }));
      messages.push({ role: 'assistant', content: text(blocks.filter((block) => block.type === 'text')) || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
      continue;
    }
    // A system message inside the conversation (Claude Code sends its environment so) stays a system message.
    if (message.role === 'system') {
      const instructions = text(blocks);
      if (instructions) messages.push({ role: 'system', content: instructions });
      continue;
    }
    // Tool results become OpenAI tool messages, ahead of the rest of the user's turn. A tool
    // message carries text only: the images a result holds (a screenshot, an image file read)
    // follow in the user's turn.
    const parts: JsonObject[] = [];
    for (const block of blocks) {
      if (block.type === 'tool_result') {
        messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: text(block.content) });
        for (const inner of Array.isArray(block.content) ? (block.content as JsonObject[]) : []) {
          const part = inner.type === 'image' ? imagePart(inner) : undefined;
          if (part) parts.push(part);
        }
      } else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
      else if (block.type === 'image') {
        const part = imagePart(block);
        if (part) parts.push(part);
      }
    }
    if (parts.length > 0) messages.push({ role: 'user', content: parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts });
  }

  const out: JsonObject = { model: body.model, messages };
  if (typeof body.max_tokens === 'number') out.max_tokens = body.max_tokens;
  for (const field of ['temperature', 'top_p'] as const) if (typeof body[field] === 'number') out[field] = body[field];
  if (Array.isArray(body.stop_sequences)) out.stop = body.stop_sequences;
  if (body.stream === true) out.stream = true;
  const user = (body.metadata as JsonObject | undefined)?.user_id;
  if (typeof user === 'string') out.user = user;
  if (Array.isArray(body.tools)) out.tools = (body.tools as JsonObject[]).map(functionToolOf);
  const choice = body.tool_choice as JsonObject | undefined;
  if (choice?.type === 'tool') out.tool_choice = { type: 'function', function: { name: choice.name } };
  else if (typeof choice?.type === 'string' && TOOL_CHOICES[choice.type]) out.tool_choice = TOOL_CHOICES[choice.type];
  if (choice?.disable_parallel_tool_use === true && out.tools) out.parallel_tool_calls = false;
  return out;
}

/** An OpenAI chat completion as a Claude message. */
function claudeResponseFromOpenAI(answer: JsonObject, options: ClientStreamOptions): JsonObject {
  const choice = firstChoice(answer) ?? {};
  const message = (choice.message ?? {}) as JsonObject;
  const content: JsonObject[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  if (typeof message.content === 'string' && message.content) content.push({ type: 'text', text: message.content });
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []) {
    const fn = (call.function ?? {}) as JsonObject;
    let input: unknown = {};
    try {
      input = JSON.parse(typeof fn.arguments === 'string' && fn.arguments ? fn.arguments : '{}');
    } catch {
      input = {};
    }
    content.push({ type: 'tool_use', id: call.id, name: fn.name, input });
  }
  return {
    id: typeof answer.id === 'string' ? answer.id : 'msg_gateway',
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    stop_reason: stopReasonOf(choice.finish_reason),
    stop_sequence: null,
    usage: claudeUsage(fullUsage(readUsage(answer.usage))),
  };
}

type BlockKind = 'text' | 'thinking' | 'tool_use';

/**
 * OpenAI chunks as Claude's event stream: message_start, then content blocks opened and
 * closed as the kind of delta changes, then message_delta with the stop reason and the usage,
 * and message_stop.
 */
class ClaudeStreamEncoder implements StreamEncoder {
  private started = false;
  private block: BlockKind | undefined;
  private blockIndex = -1;
  private stopReason = 'end_turn';
  private failed = false;

  constructor(private readonly options: ClientStreamOptions) {}

  encode(chunk: JsonObject): string {
    if (chunk.error) return this.error(chunk.error as JsonObject);
    let out = this.start(chunk);
    const choice = firstChoice(chunk);
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as JsonObject;
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
      out += this.open('thinking', { type: 'thinking', thinking: '' }) + this.delta({ type: 'thinking_delta', thinking: delta.reasoning_content });
    }
    if (typeof delta.content === 'string' && delta.content) {
      out += this.open('text', { type: 'text', text: '' }) + this.delta({ type: 'text_delta', text: delta.content });
    }
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as JsonObject[]) : []) {
      const fn = (call.function ?? {}) as JsonObject;
      if (typeof call.id === 'string' && call.id) out += this.open('tool_use', { type: 'tool_use', id: call.id, name: fn.name, input: {} });
      if (typeof fn.arguments === 'string' && fn.arguments) out += this.delta({ type: 'input_json_delta', partial_json: fn.arguments });
    }
    if (typeof choice.finish_reason === 'string') this.stopReason = stopReasonOf(choice.finish_reason);
    return out;
  }

  end(usage: Usage | undefined): string {
    if (this.failed) return '';
    return (
      this.start({}) +
      this.close() +
      sseFrame(JSON.stringify({ type: 'message_delta', delta: { stop_reason: this.stopReason, stop_sequence: null }, usage: claudeUsage(usage) }), 'message_delta') +
      sseFrame(JSON.stringify({ type: 'message_stop' }), 'message_stop')
    );
  }

  /** An in-stream error (OpenAI's error chunk) as Claude's error event, which ends the stream as Anthropic's does. */
  private error(error: JsonObject): string {
    this.failed = true;
    const type = typeof error.type === 'string' && error.type.endsWith('_error') ? error.type : 'api_error';
    return sseFrame(JSON.stringify({ type: 'error', error: { type, message: typeof error.message === 'string' ? error.message : 'The upstream stream failed' } }), 'error');
  }

  private start(chunk: JsonObject): string {
    if (this.started) return '';
    this.started = true;
    const message = { id: typeof chunk.id === 'string' ? chunk.id : 'msg_gateway', type: 'message', role: 'assistant', model: this.options.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    return sseFrame(JSON.stringify({ type: 'message_start', message }), 'message_start');
  }

  private open(kind: BlockKind, contentBlock: JsonObject): string {
    if (this.block === kind && kind !== 'tool_use') return '';
    const closing = this.close();
    this.block = kind;
    this.blockIndex++;
    return closing + sseFrame(JSON.stringify({ type: 'content_block_start', index: this.blockIndex, content_block: contentBlock }), 'content_block_start');
  }

  private delta(delta: JsonObject): string {
    return sseFrame(JSON.stringify({ type: 'content_block_delta', index: this.blockIndex, delta }), 'content_block_delta');
  }

  private close(): string {
    if (this.block === undefined) return '';
    this.block = undefined;
    return sseFrame(JSON.stringify({ type: 'content_block_stop', index: this.blockIndex }), 'content_block_stop');
  }
}
