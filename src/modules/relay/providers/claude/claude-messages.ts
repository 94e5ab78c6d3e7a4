import { openAIUsageOf } from '../../wire/openai-usage';
import { streamErrorChunk, type StreamDecoder } from '../../wire/stream-decoder';
import type { JsonObject } from '../../wire/wire-format';
import type { AnswerReading } from '../adaptor';
import type { ImageFetcher } from '../gemini/gemini-content';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * Claude's Messages format beside OpenAI's chat format (the internal shape), in both
 * directions, shared by every channel that speaks it (Anthropic, Bedrock, Vertex) and by the
 * inbound /v1/messages endpoint.
 */

export const ANTHROPIC_VERSION = '2023-06-01';

/** What a Claude request needs beyond the OpenAI body. */
export interface ClaudeRequestOptions {
  model: string;
  /** max_tokens when the client sends none (Claude requires it). */
  defaultMaxTokens: number;
  /** The share of max_tokens given to thinking, when the model asked for it with a `-thinking` suffix. */
  thinkingBudgetShare?: number;
}

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_calls', refusal: 'content_filter', pause_turn: 'stop' };

/** An OpenAI finish_reason for a Claude stop_reason. */
export function finishReasonOf(stopReason: unknown): string | null {
  return typeof stopReason === 'string' ? (STOP_REASONS[stopReason] ?? 'stop') : null;
}

/**
 * Claude's usage in OpenAI's sense: Claude's input_tokens leaves out the cached and
 * cache-written tokens, OpenAI's prompt_tokens includes them. Only the counts present are
 * reported, since Claude spreads them over message_start and message_delta.
 */
export function readClaudeUsage(value: unknown): UsageReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as JsonObject;
  const report: UsageReport = {};
  if (usage.input_tokens !== undefined) {
    const cacheRead = tokenCount(usage.cache_read_input_tokens);
    const cacheWrite = tokenCount(usage.cache_creation_input_tokens);
    report.promptTokens = tokenCount(usage.input_tokens) + cacheRead + cacheWrite;
    report.cachedTokens = cacheRead;
    report.cacheWriteTokens = cacheWrite;
  }
  if (usage.output_tokens !== undefined) report.completionTokens = tokenCount(usage.output_tokens);
  return report;
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as JsonObject[])
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .join('');
}

/** An OpenAI image_url part as a Claude image block: data URLs inline as base64, others by URL. */
function claudeImage(part: JsonObject): JsonObject | undefined {
  const imageUrl = part.image_url as JsonObject | string | undefined;
  const url = typeof imageUrl === 'string' ? imageUrl : imageUrl?.url;
  if (typeof url !== 'string') return undefined;
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  return { type: 'image', source: { type: 'url', url } };
}

function claudeUserContent(content: unknown): JsonObject[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text' && typeof part.text === 'string') blocks.push({ type: 'text', text: part.text });
    else if (part?.type === 'image_url') {
      const image = claudeImage(part);
      if (image) blocks.push(image);
    }
  }
  return blocks;
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** Claude wants turns to alternate: consecutive messages of one role merge into one. */
function pushTurn(messages: JsonObject[], role: string, blocks: JsonObject[]): void {
  if (blocks.length === 0) return;
  const last = messages[messages.length - 1];
  if (last?.role === role) (last.content as JsonObject[]).push(...blocks);
  else messages.push({ role, content: blocks });
}

const TOOL_CHOICES: Record<string, JsonObject> = { auto: { type: 'auto' }, required: { type: 'any' }, none: { type: 'none' } };

/** An OpenAI chat body as a Claude Messages body. */
export function claudeRequestFromOpenAI(body: JsonObject, options: ClaudeRequestOptions): JsonObject {
  const system: string[] = [];
  const messages: JsonObject[] = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    if (typeof message !== 'object' || message === null) continue;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(textOfContent(message.content));
        break;
      case 'assistant': {
        const blocks: JsonObject[] = [];
        const text = textOfContent(message.content);
        if (text) blocks.push({ type: 'text', text });
        for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []) {
          const fn = (call.function ?? {}) as JsonObject;
          blocks.push({ type: 'tool_use', id: call.id, name: fn.name, input: parseArguments(fn.arguments) });
        }
        pushTurn(messages, 'assistant', blocks);
        break;
      }
      case 'tool':
        pushTurn(messages, 'user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: textOfContent(message.content) }]);
        break;
      default:
        pushTurn(messages, 'user', claudeUserContent(message.content));
    }
  }

  let model = options.model;
  const maxTokens = tokenCount(body.max_completion_tokens ?? body.max_tokens) || options.defaultMaxTokens;
  const out: JsonObject = { model, messages, max_tokens: maxTokens };
  if (system.length > 0) out.system = system.join('\n');
  for (const field of ['temperature', 'top_p', 'top_k'] as const) if (typeof body[field] === 'number') out[field] = body[field];
  if (typeof body.stop === 'string') out.stop_sequences = [body.stop];
  else if (Array.isArray(body.stop)) out.stop_sequences = body.stop;
  if (body.stream === true) out.stream = true;
  if (typeof body.user === 'string') out.metadata = { user_id: body.user };
  if (Array.isArray(body.tools)) {
    out.tools = (body.tools as JsonObject[]).map((tool) => {
      const fn = (tool.function ?? {}) as JsonObject;
      return { name: fn.name, ...(fn.description ? { description: fn.description } : {}), input_schema: fn.parameters ?? { type: 'object', properties: {} } };
    });
  }
  const choice = body.tool_choice;
  if (typeof choice === 'string' && TOOL_CHOICES[choice]) out.tool_choice = TOOL_CHOICES[choice];
  else if (typeof choice === 'object' && choice !== null) out.tool_choice = { type: 'tool', name: ((choice as JsonObject).function as JsonObject | undefined)?.name };
  // Claude says "one tool call at a time" in its tool_choice (none takes no such flag).
  if (body.parallel_tool_calls === false && out.tools && (out.tool_choice as JsonObject | undefined)?.type !== 'none') out.tool_choice = { ...((out.tool_choice as JsonObject | undefined) ?? { type: 'auto' }), disable_parallel_tool_use: true };

  if (options.thinkingBudgetShare !== undefined && model.endsWith(THINKING_SUFFIX)) {
    model = model.slice(0, -THINKING_SUFFIX.length);
    out.model = model;
    addThinkingBudget(out, options.thinkingBudgetShare);
  }
  return out;
}

/** The model suffix that asks the thinking adapter for a thinking budget. */
export const THINKING_SUFFIX = '-thinking';
/** Claude's least thinking budget, and the least max_tokens that leaves room beside it (new-api's floor). */
const MIN_THINKING_BUDGET = 1024;
const MIN_THINKING_MAX_TOKENS = 1280;

/**
 * Whether the conversation continues a tool use (it ends with tool results) whose assistant turn
 * starts with no thinking block. Claude refuses thinking then ("a final assistant message must
 * start with a thinking block"), and a client of another format (OpenAI's chat, Responses) has
 * no signed thinking block to send back: the adapter leaves thinking off for that turn.
 */
function continuesToolUseWithoutThinking(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  const turns = messages as JsonObject[];
  const last = turns[turns.length - 1];
  if (last?.role !== 'user' || !Array.isArray(last.content) || !(last.content as JsonObject[]).some((block) => block?.type === 'tool_result')) return false;
  const assistant = turns.slice(0, -1).reverse().find((turn) => turn?.role === 'assistant');
  const first = Array.isArray(assistant?.content) ? (assistant.content as JsonObject[])[0] : undefined;
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

/**
 * The thinking adapter on a Claude body, unless it already asks for thinking or continues a tool
 * use without a thinking block (continuesToolUseWithoutThinking): a budget of
 * `share` of max_tokens, which Claude takes only from 1024 and below max_tokens (max_tokens is
 * raised to 1280 when lower). Claude refuses sampling parameters while thinking.
 */
export function addThinkingBudget(body: JsonObject, share: number): void {
  if (body.thinking !== undefined || continuesToolUseWithoutThinking(body.messages)) return;
  const maxTokens = Math.max(tokenCount(body.max_tokens), MIN_THINKING_MAX_TOKENS);
  body.max_tokens = maxTokens;
  body.thinking = { type: 'enabled', budget_tokens: Math.min(Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens * share)), maxTokens - 1) };
  delete body.temperature;
  delete body.top_p;
  delete body.top_k;
}

/**
 * Claude's image blocks that link to a URL, fetched and inlined as base64: for the hosts of
 * Claude that take no image URLs (Bedrock, Vertex), as new-api inlines them.
 */
export async function inlineClaudeImages(body: JsonObject, fetchImage: ImageFetcher): Promise<JsonObject> {
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    for (const block of Array.isArray(message.content) ? (message.content as JsonObject[]) : []) {
      const source = block.type === 'image' ? (block.source as JsonObject | undefined) : undefined;
      if (source?.type !== 'url' || typeof source.url !== 'string') continue;
      const image = await fetchImage(source.url);
      block.source = { type: 'base64', media_type: image.mimeType, data: image.data };
    }
  }
  return body;
}

/** A complete Claude message as an OpenAI chat completion. */
export function openAIResponseFromClaude(message: JsonObject, model: string): JsonObject {
  let text = '';
  let thinking = '';
  const toolCalls: JsonObject[] = [];
  for (const block of Array.isArray(message.content) ? (message.content as JsonObject[]) : []) {
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block.type === 'thinking' && typeof block.thinking === 'string') thinking += block.thinking;
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
  }
  const reply: JsonObject = { role: 'assistant', content: text || (toolCalls.length ? null : '') };
  if (thinking) reply.reasoning_content = thinking;
  if (toolCalls.length) reply.tool_calls = toolCalls;
  const usage = openAIUsageOf(readClaudeUsage(message.usage));
  return {
    id: typeof message.id === 'string' ? message.id : 'chatcmpl-claude',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: reply, finish_reason: finishReasonOf(message.stop_reason) ?? 'stop' }],
    ...(usage ? { usage } : {}),
  };
}

/** The usage and text of a complete Claude message. */
export function readClaudeAnswer(body: unknown): AnswerReading {
  if (typeof body !== 'object' || body === null) return { text: '' };
  const message = body as JsonObject;
  return { usage: readClaudeUsage(message.usage), text: claudeText(message) };
}

/** The usage and text of one Claude stream event (its data), passed through. */
export function readClaudeStreamEvent(data: string): AnswerReading | undefined {
  let event: JsonObject;
  try {
    event = JSON.parse(data) as JsonObject;
  } catch {
    return undefined;
  }
  const usage = event.type === 'message_start' ? (event.message as JsonObject | undefined)?.usage : event.usage;
  return { usage: readClaudeUsage(usage), text: claudeText(event) };
}

/** The text a Claude message or stream event carries, for local counting when usage is missing. */
export function claudeText(value: JsonObject): string {
  let text = '';
  const delta = value.delta as JsonObject | undefined;
  if (delta) {
    if (typeof delta.text === 'string') text += delta.text;
    if (typeof delta.thinking === 'string') text += delta.thinking;
    if (typeof delta.partial_json === 'string') text += delta.partial_json;
  }
  for (const block of Array.isArray(value.content) ? (value.content as JsonObject[]) : []) {
    if (typeof block.text === 'string') text += block.text;
    if (typeof block.thinking === 'string') text += block.thinking;
    if (block.type === 'tool_use') text += `${String(block.name)}${JSON.stringify(block.input ?? {})}`;
  }
  return text;
}

/**
 * Claude's stream events as OpenAI chunks, for one request. Tool calls are numbered in the
 * order their blocks open, as OpenAI numbers them.
 */
export class ClaudeEventTranslator {
  private id = 'chatcmpl-claude';
  private readonly created = Math.floor(Date.now() / 1000);
  private toolIndex = -1;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  /** The OpenAI chunks of one Claude event (its JSON data), often none. */
  translate(event: JsonObject): JsonObject[] {
    switch (event.type) {
      case 'message_start': {
        const message = (event.message ?? {}) as JsonObject;
        if (typeof message.id === 'string') this.id = message.id;
        this.usage.add(readClaudeUsage(message.usage));
        return [this.chunk({ role: 'assistant', content: '' })];
      }
      case 'content_block_start': {
        const block = (event.content_block ?? {}) as JsonObject;
        if (block.type === 'tool_use') {
          this.toolIndex++;
          return [this.chunk({ tool_calls: [{ index: this.toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] })];
        }
        if (block.type === 'text' && typeof block.text === 'string' && block.text) return [this.chunk({ content: block.text })];
        return [];
      }
      case 'content_block_delta': {
        const delta = (event.delta ?? {}) as JsonObject;
        if (delta.type === 'text_delta') return [this.chunk({ content: delta.text })];
        if (delta.type === 'thinking_delta') return [this.chunk({ reasoning_content: delta.thinking })];
        if (delta.type === 'input_json_delta') return [this.chunk({ tool_calls: [{ index: this.toolIndex, function: { arguments: delta.partial_json } }] })];
        return [];
      }
      case 'message_delta': {
        this.usage.add(readClaudeUsage(event.usage));
        const reason = finishReasonOf((event.delta as JsonObject | undefined)?.stop_reason);
        return reason ? [this.chunk({}, reason)] : [];
      }
      case 'error': {
        // Overloaded and the like, after the answer began: OpenAI's in-stream error chunk, which the client's encoder renders in its own format.
        const error = (event.error ?? {}) as JsonObject;
        return [streamErrorChunk(error.message, error.type)];
      }
      default:
        return [];
    }
  }

  private chunk(delta: JsonObject, finishReason: string | null = null): JsonObject {
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}

/** Claude's SSE stream, decoded into OpenAI chunks. */
export function claudeSseDecoder(model: string, usage: UsageMeter): StreamDecoder {
  const events = new ClaudeEventTranslator(model, usage);
  return new SseJsonDecoder((event) => events.translate(event));
}
