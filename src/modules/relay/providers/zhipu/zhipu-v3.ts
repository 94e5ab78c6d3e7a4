import { StringDecoder } from 'node:string_decoder';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import { answerErrorChunk, type AnswerError, type AnswerReading } from '../adaptor';
import { openAIChatCompletion, openAIMessageText } from '../../wire/openai-answer';
import { readUsage } from '../../wire/openai-usage';
import type { UsageMeter } from '../../wire/usage';
import { zhipuError } from './zhipu-errors';

/**
 * Zhipu's v3 model API (`/api/paas/v3/model-api/{model}/invoke` and `/sse-invoke`) beside
 * OpenAI's chat format: a `prompt` of user and assistant turns, sampling clamped to the ranges
 * v3 accepts, and answers wrapped in `{code, msg, success, data}`.
 */

/** The ranges v3 accepts (temperature in (0, 1], top_p in (0, 1)): values outside are clamped to the nearest it takes. */
const SAMPLING_RANGES: Readonly<Record<string, { min: number; max: number }>> = {
  temperature: { min: 0.01, max: 1 },
  top_p: { min: 0.01, max: 0.99 },
};

/** v3 knows user and assistant turns only: a system prompt becomes a user turn the assistant acknowledges, as new-api sends it. */
const SYSTEM_ACKNOWLEDGEMENT = 'Okay';

/** An OpenAI chat body as a v3 invoke body. */
export function zhipuRequestFromOpenAI(body: JsonObject, stream: boolean): JsonObject {
  const prompt: JsonObject[] = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    const content = openAIMessageText(message.content);
    if (message.role === 'system') prompt.push({ role: 'user', content }, { role: 'assistant', content: SYSTEM_ACKNOWLEDGEMENT });
    else prompt.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
  }
  const request: JsonObject = { prompt };
  for (const [name, range] of Object.entries(SAMPLING_RANGES)) {
    const value = body[name];
    if (typeof value === 'number' && Number.isFinite(value)) request[name] = Math.min(range.max, Math.max(range.min, value));
  }
  if (stream) request.incremental = true;
  return request;
}

/** The error a v3 answer reports inside its 200 (`success: false`, a `code` other than 200), or undefined. */
export function zhipuV3AnswerError(body: unknown): AnswerError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const answer = body as JsonObject;
  const failed = answer.success === false || (answer.code !== undefined && answer.code !== 200 && answer.code !== '200');
  return failed ? zhipuError(answer.code, answer.msg, 200) : undefined;
}

/**
 * A choice's content, which v3 answers JSON-encoded (`"\"Hello\\nworld\""`): decoded when it
 * is, else its surrounding quotes trimmed as one-api does.
 */
function choiceContent(content: unknown): string {
  if (typeof content !== 'string') return '';
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    try {
      const decoded = JSON.parse(content) as unknown;
      if (typeof decoded === 'string') return decoded;
    } catch {
      return content.slice(1, -1);
    }
  }
  return content;
}

function answerData(body: unknown): JsonObject {
  const data = typeof body === 'object' && body !== null ? (body as JsonObject).data : undefined;
  return typeof data === 'object' && data !== null ? (data as JsonObject) : {};
}

function choicesOf(data: JsonObject): JsonObject[] {
  return Array.isArray(data.choices) ? (data.choices as JsonObject[]) : [];
}

/** The usage and text of a v3 invoke answer. */
export function readZhipuV3Answer(body: unknown): AnswerReading {
  const data = answerData(body);
  return { usage: readUsage(data.usage), text: choicesOf(data).map((choice) => choiceContent(choice.content)).join('') };
}

/** A v3 invoke answer as an OpenAI chat completion. */
export function openAIResponseFromZhipuV3(body: unknown, model: string): JsonObject {
  const data = answerData(body);
  const choices = choicesOf(data).map((choice, index) => ({ index, message: { role: 'assistant', content: choiceContent(choice.content) }, finish_reason: 'stop' }));
  return openAIChatCompletion(typeof data.task_id === 'string' ? data.task_id : 'chatcmpl-zhipu', model, choices, readUsage(data.usage));
}

/** One event of v3's stream: its name, its `data:` lines (raw text, joined by newlines) and its `meta:` JSON. */
interface ZhipuStreamEvent {
  event?: string;
  data?: string;
  meta?: string;
}

/**
 * v3's `sse-invoke` stream as OpenAI chunks, for one request. Its events are `add` (a piece of
 * the answer, incremental), `finish` (a `meta:` line carries the usage), `error` and
 * `interrupted` (the answer was stopped, e.g. by the content filter). Data lines hold raw
 * text: what follows `data:` is the text as it is (one-api reads it so), and several data
 * lines of one event are one text with newlines.
 */
export class ZhipuV3StreamDecoder implements StreamDecoder {
  private readonly text = new StringDecoder('utf8');
  private readonly created = Math.floor(Date.now() / 1000);
  private partial = '';
  private current: ZhipuStreamEvent = {};
  private started = false;
  private id = 'chatcmpl-zhipu';

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  push(bytes: Buffer): JsonObject[] {
    const lines = (this.partial + this.text.write(bytes)).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.flatMap((line) => this.readLine(line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  end(): JsonObject[] {
    const last = this.partial ? this.readLine(this.partial) : [];
    this.partial = '';
    return [...last, ...this.readLine('')];
  }

  private readLine(line: string): JsonObject[] {
    if (line === '') {
      const event = this.current;
      this.current = {};
      return event.event !== undefined || event.data !== undefined ? this.translate(event) : [];
    }
    if (line.startsWith('data:')) {
      const text = line.slice(5);
      this.current.data = this.current.data === undefined ? text : `${this.current.data}\n${text}`;
    } else if (line.startsWith('meta:')) {
      this.current.meta = line.slice(5).trim();
    } else if (line.startsWith('event:')) {
      this.current.event = line.slice(6).trim();
    } else if (line.startsWith('id:')) {
      this.id = line.slice(3).trim() || this.id;
    }
    return [];
  }

  private translate(event: ZhipuStreamEvent): JsonObject[] {
    switch (event.event ?? 'add') {
      case 'add':
        return event.data ? [this.chunk({ content: event.data }, null)] : [];
      case 'finish': {
        this.usage.add(readUsage(metaOf(event.meta).usage));
        const chunks = event.data ? [this.chunk({ content: event.data }, null)] : [];
        return [...chunks, this.chunk({}, 'stop')];
      }
      case 'interrupted':
        return [this.chunk({}, 'content_filter')];
      case 'error':
        return [answerErrorChunk({ status: 500, message: event.data?.trim() || 'Zhipu reported an error in the stream' })];
      default:
        return [];
    }
  }

  private chunk(delta: JsonObject, finishReason: string | null): JsonObject {
    if (!this.started) {
      this.started = true;
      delta = { role: 'assistant', ...delta };
    }
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}

function metaOf(meta: string | undefined): JsonObject {
  try {
    const parsed = JSON.parse(meta ?? '') as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as JsonObject) : {};
  } catch {
    return {};
  }
}
