import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import { answerErrorChunk, type AnswerError } from '../adaptor';
import { SseDecoder, type SseEvent } from '../../wire/sse-decoder';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * Coze's v3 chat API beside OpenAI's chat format. The gateway always asks Coze for a stream
 * (its non-streaming mode answers only a chat id to poll): a streaming client gets the events
 * translated as they come, a non-streaming one the stream collected into one answer
 * (`collectCozeStream`), shaped as Coze's own retrieve and message-list answers together.
 */

/** Coze's `user_id` when the client names none: one stable end user for the gateway's calls. */
export const COZE_DEFAULT_USER = 'api-gateway';

/** Coze's error codes (`{code, msg}`) as the relay reads them: a bad or powerless token 401, exhausted quota insufficient_quota. */
const ERROR_CODES: Readonly<Record<number, { status: number; code?: string }>> = {
  4000: { status: 400 },
  4013: { status: 429 },
  4028: { status: 429, code: 'insufficient_quota' },
  4100: { status: 401 },
  4101: { status: 401 },
  5000: { status: 500 },
};

/** A collected non-streaming answer: the chat (status, usage) and its answer messages, or Coze's error. */
export interface CollectedCozeChat extends JsonObject {
  code: number;
  msg: string;
  data?: JsonObject;
  messages?: JsonObject[];
}

/** The error a Coze body reports (`{code, msg}` with a code other than 0), or undefined. */
export function cozeAnswerError(body: unknown): AnswerError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, msg, message } = body as { code?: unknown; msg?: unknown; message?: unknown };
  if (typeof code !== 'number' || code === 0) return undefined;
  const known = ERROR_CODES[code];
  const text = typeof msg === 'string' && msg ? msg : typeof message === 'string' && message ? message : `Coze error ${code}`;
  return { status: known?.status ?? (code >= 5000 ? 500 : 400), message: text, code: known?.code ?? `coze_${code}` };
}

/**
 * An OpenAI chat body as Coze's `/v3/chat` body: the bot is the model name, the client's
 * user and assistant turns are `additional_messages` (history kept by no one: auto_save_history
 * is off), image URLs travel as an `object_string` message. System messages are left out:
 * a bot's persona is its own prompt, which Coze offers no way to replace per call.
 */
export function cozeRequestFromOpenAI(body: JsonObject, botId: string): JsonObject {
  const messages: JsonObject[] = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    if (message?.role === 'user') messages.push(userMessage(message.content));
    else if (message?.role === 'assistant') messages.push({ role: 'assistant', type: 'answer', content: plainText(message.content), content_type: 'text' });
  }
  return {
    bot_id: botId,
    user_id: typeof body.user === 'string' && body.user ? body.user : COZE_DEFAULT_USER,
    stream: true,
    auto_save_history: false,
    additional_messages: messages,
  };
}

function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as JsonObject[]).map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('\n');
}

function userMessage(content: unknown): JsonObject {
  const images = Array.isArray(content) ? (content as JsonObject[]).filter((part) => part?.type === 'image_url') : [];
  if (images.length === 0) return { role: 'user', content: plainText(content), content_type: 'text' };
  const parts: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text' && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    if (part?.type !== 'image_url') continue;
    const imageUrl = part.image_url as JsonObject | string | undefined;
    const url = typeof imageUrl === 'string' ? imageUrl : imageUrl?.url;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new RelayError('invalid_request', 'Coze channels take images by http(s) URL only, not inline data', 400);
    parts.push({ type: 'image', file_url: url });
  }
  return { role: 'user', content: JSON.stringify(parts), content_type: 'object_string' };
}

/** Coze's chat usage in OpenAI's sense. */
export function cozeUsage(chat: JsonObject | undefined): UsageReport | undefined {
  const usage = chat?.usage as JsonObject | undefined;
  if (!usage) return undefined;
  return { promptTokens: tokenCount(usage.input_count), completionTokens: tokenCount(usage.output_count) };
}

/** A Coze event with its name and JSON data (the `done` event's `"[DONE]"` is a string). */
interface CozeEvent {
  name: string;
  data: JsonObject;
}

function parsedEvents(events: SseEvent[]): CozeEvent[] {
  const parsed: CozeEvent[] = [];
  for (const { event, data } of events) {
    try {
      const value = JSON.parse(data) as unknown;
      if (typeof value === 'object' && value !== null) parsed.push({ name: event ?? '', data: value as JsonObject });
    } catch {
      /* a malformed event carries nothing to deliver */
    }
  }
  return parsed;
}

/** A piece of an answer message: its text and reasoning. */
interface AnswerPiece {
  messageId: string;
  chatId: string;
  content: string;
  reasoning: string;
}

/** What a chat's events come to, for a stream or a collected answer alike. */
interface CozeEventSink {
  text(piece: AnswerPiece): void;
  completed(chat: JsonObject): void;
  /** Coze's error, `{code, msg}`. */
  failed(error: JsonObject): void;
}

/**
 * Reads a Coze stream's events in order: answer text from `conversation.message.delta`
 * (an answer message that comes only `completed`, without deltas, counts whole), the usage from
 * `conversation.chat.completed`, errors from `conversation.chat.failed` and `error`. The rest
 * (`conversation.chat.created`, `in_progress`, tool and follow-up messages, `done`) is ignored.
 */
class CozeEventReader {
  private readonly sse = new SseDecoder();
  private readonly streamed = new Set<string>();

  constructor(private readonly sink: CozeEventSink) {}

  push(bytes: Buffer): void {
    for (const event of parsedEvents(this.sse.push(bytes))) this.read(event);
  }

  end(): void {
    for (const event of parsedEvents(this.sse.end())) this.read(event);
  }

  private read({ name, data }: CozeEvent): void {
    switch (name) {
      case 'conversation.message.delta':
      case 'conversation.message.completed': {
        if (data.type !== undefined && data.type !== 'answer') return;
        const id = String(data.id ?? '');
        if (name === 'conversation.message.completed' && this.streamed.has(id)) return;
        this.streamed.add(id);
        this.sink.text({ messageId: id, chatId: String(data.chat_id ?? ''), content: stringOf(data.content), reasoning: stringOf(data.reasoning_content) });
        return;
      }
      case 'conversation.chat.completed':
        this.sink.completed(data);
        return;
      case 'conversation.chat.failed':
        this.sink.failed(typeof data.last_error === 'object' && data.last_error !== null ? (data.last_error as JsonObject) : {});
        return;
      case 'error':
        this.sink.failed(data);
        return;
    }
  }
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Coze's error as the relay reads it; one without a code is Coze's fault. */
function failure(error: JsonObject): AnswerError {
  return cozeAnswerError(error) ?? { status: 500, message: stringOf(error.msg) || 'The Coze chat failed' };
}

/**
 * Per request: Coze's stream as OpenAI chunks, collecting the usage. Two answer messages are
 * parted by a blank line, as in the collected answer.
 */
export class CozeStreamDecoder implements StreamDecoder, CozeEventSink {
  private readonly reader = new CozeEventReader(this);
  private out: JsonObject[] = [];
  private started = false;
  /** The answer message the last text came from: another one's text starts after a blank line. */
  private lastMessage?: string;
  private chatId = '';

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  push(bytes: Buffer): JsonObject[] {
    this.reader.push(bytes);
    return this.flush();
  }

  end(): JsonObject[] {
    this.reader.end();
    return this.flush();
  }

  text({ messageId, chatId, content, reasoning }: AnswerPiece): void {
    if (chatId) this.chatId = chatId;
    if (!content && !reasoning) return;
    const delta: JsonObject = this.started ? {} : { role: 'assistant' };
    this.started = true;
    if (content) {
      delta.content = this.lastMessage !== undefined && this.lastMessage !== messageId ? `\n\n${content}` : content;
      this.lastMessage = messageId;
    }
    if (reasoning) delta.reasoning_content = reasoning;
    this.out.push(this.chunk(delta, null));
  }

  completed(chat: JsonObject): void {
    this.chatId = String(chat.id ?? this.chatId);
    this.usage.add(cozeUsage(chat));
    this.out.push(this.chunk(this.started ? {} : { role: 'assistant', content: '' }, 'stop'));
  }

  failed(error: JsonObject): void {
    this.out.push(answerErrorChunk(failure(error)));
  }

  private chunk(delta: JsonObject, finishReason: string | null): JsonObject {
    return { id: this.chatId, object: 'chat.completion.chunk', model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }

  private flush(): JsonObject[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}

/**
 * A whole Coze stream collected into one answer: `{code: 0, msg, data: <chat>, messages}`
 * with the chat's usage and the answer messages' text, or `{code, msg}` of its error.
 */
export function collectCozeStream(bytes: Buffer): CollectedCozeChat {
  const messages = new Map<string, { content: string; reasoning: string }>();
  let chat: JsonObject | undefined;
  let error: JsonObject | undefined;
  const reader = new CozeEventReader({
    text({ messageId, content, reasoning }) {
      const message = messages.get(messageId) ?? { content: '', reasoning: '' };
      message.content += content;
      message.reasoning += reasoning;
      messages.set(messageId, message);
    },
    completed(completedChat) {
      chat = completedChat;
    },
    failed(failure) {
      error ??= failure;
    },
  });
  reader.push(bytes);
  reader.end();
  if (error) {
    const { status, message } = failure(error);
    // An error without Coze's code keeps the relay's reading of it: 5000 is Coze's own fault.
    return { code: typeof error.code === 'number' && error.code !== 0 ? error.code : status >= 500 ? 5000 : 4000, msg: message };
  }
  const answers = [...messages].map(([id, message]) => ({ id, role: 'assistant', type: 'answer', content: message.content, reasoning_content: message.reasoning, content_type: 'text' }));
  return { code: 0, msg: '', data: chat ?? { status: 'completed' }, messages: answers };
}

/** The answer text of a collected answer: its answer messages parted by blank lines. */
export function collectedAnswerText(body: CollectedCozeChat): { content: string; reasoning: string } {
  const messages = body.messages ?? [];
  return {
    content: messages.map((message) => String(message.content ?? '')).filter(Boolean).join('\n\n'),
    reasoning: messages.map((message) => String(message.reasoning_content ?? '')).join(''),
  };
}

/** A collected answer as OpenAI's chat completion, named after the client's model. */
export function openAIResponseFromCoze(body: CollectedCozeChat, model: string): JsonObject {
  const { content, reasoning } = collectedAnswerText(body);
  const usage = cozeUsage(body.data);
  const message: JsonObject = { role: 'assistant', content };
  if (reasoning) message.reasoning_content = reasoning;
  return {
    id: String(body.data?.id ?? ''),
    object: 'chat.completion',
    created: typeof body.data?.created_at === 'number' ? body.data.created_at : Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    ...(usage ? { usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0) } } : {}),
  };
}
