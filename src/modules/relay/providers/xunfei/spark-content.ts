import { openAIUsageOf } from '../../wire/openai-usage';
import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError, type AnswerReading } from '../adaptor';
import { ChatChunkBuilder, messageText } from '../openai-chat-parts';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';
import type { SparkVersion } from './spark-versions';

/**
 * iFlytek Spark's chat frames (its WebSocket API) beside OpenAI's chat format, the internal
 * shape. A request is one frame `{header, parameter: {chat}, payload: {message: {text}}}`;
 * the answer comes as frames `{header: {code, message, sid, status}, payload: {choices:
 * {status, seq, text}, usage}}`, status 2 marking the last, which alone carries the usage.
 */

/** The three parts of a Spark channel key, `APPID|APISecret|APIKey` as the console shows them. */
export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export function parseSparkKey(key: string): SparkCredentials {
  const [appId, apiSecret, apiKey] = key.split('|').map((part) => part.trim());
  if (!appId || !apiSecret || !apiKey) throw new RelayError('channel:unauthorized', 'The iFlytek Spark channel key must be APPID|APISecret|APIKey', 502);
  return { appId, apiSecret, apiKey };
}

/** `header.status` and `payload.choices.status` of the answer's last frame. */
const SPARK_LAST_STATUS = 2;

/** Spark takes a uid of 32 characters at most. */
const UID_LIMIT = 32;

/** OpenAI's sampling fields and Spark's names for them (`top_k` is Spark's own, passed on when a client sends it). */
const CHAT_PARAMETERS: ReadonlyArray<readonly [openai: string, spark: string]> = [
  ['temperature', 'temperature'],
  ['max_completion_tokens', 'max_tokens'],
  ['max_tokens', 'max_tokens'],
  ['top_k', 'top_k'],
];

/**
 * OpenAI's messages as Spark's text list. Versions without a system role get the system text
 * at the head of the next user turn, so the turns still alternate. Spark's WebSocket takes
 * text only (iFlytek moved function calling to its HTTP API): image parts and tool calls are
 * left out, and a tool's result is a user turn.
 */
function sparkMessages(messages: unknown, version: SparkVersion): JsonObject[] {
  const text: JsonObject[] = [];
  let pendingSystem = '';
  for (const message of Array.isArray(messages) ? (messages as JsonObject[]) : []) {
    const content = messageText(message?.content);
    const role = message?.role === 'developer' ? 'system' : message?.role;
    if (role === 'system' && !version.takesSystem) {
      pendingSystem = pendingSystem ? `${pendingSystem}\n${content}` : content;
      continue;
    }
    if (role === 'user' && pendingSystem) {
      text.push({ role, content: `${pendingSystem}\n\n${content}` });
      pendingSystem = '';
      continue;
    }
    if (role === 'system' || role === 'user' || role === 'assistant') text.push({ role, content });
    else if (role === 'tool') text.push({ role: 'user', content });
  }
  if (pendingSystem) text.push({ role: 'user', content: pendingSystem });
  return text;
}

/** An OpenAI chat body as Spark's request frame. */
export function sparkRequestFromOpenAI(body: JsonObject, appId: string, version: SparkVersion): JsonObject {
  const chat: JsonObject = { domain: version.domain };
  for (const [openai, spark] of CHAT_PARAMETERS) if (typeof body[openai] === 'number' && chat[spark] === undefined) chat[spark] = body[openai];
  const header: JsonObject = { app_id: appId };
  if (typeof body.user === 'string' && body.user) header.uid = body.user.slice(0, UID_LIMIT);
  return { header, parameter: { chat }, payload: { message: { text: sparkMessages(body.messages, version) } } };
}

/** `payload.usage.text` of a frame: prompt_tokens counts the history and the question, as Spark bills it. */
export function readSparkUsage(frame: JsonObject): UsageReport | undefined {
  const usage = ((frame.payload as JsonObject | undefined)?.usage as JsonObject | undefined)?.text as JsonObject | undefined;
  if (typeof usage !== 'object' || usage === null) return undefined;
  return { promptTokens: tokenCount(usage.prompt_tokens), completionTokens: tokenCount(usage.completion_tokens) };
}

function textItems(frame: JsonObject): JsonObject[] {
  const items = ((frame.payload as JsonObject | undefined)?.choices as JsonObject | undefined)?.text;
  return Array.isArray(items) ? (items as JsonObject[]) : [];
}

function joinedField(frame: JsonObject, field: 'content' | 'reasoning_content'): string {
  return textItems(frame)
    .map((item) => (typeof item?.[field] === 'string' ? (item[field] as string) : ''))
    .join('');
}

function headerOf(frame: JsonObject): JsonObject {
  return typeof frame.header === 'object' && frame.header !== null ? (frame.header as JsonObject) : {};
}

/** Whether a frame ends the answer: the last one (status 2), or an error (Spark closes after it). */
export function isLastSparkFrame(frame: JsonObject): boolean {
  const header = headerOf(frame);
  const choices = (frame.payload as JsonObject | undefined)?.choices as JsonObject | undefined;
  return (typeof header.code === 'number' && header.code !== 0) || header.status === SPARK_LAST_STATUS || choices?.status === SPARK_LAST_STATUS;
}

/**
 * A whole answer from its frames, in the frames' own shape (the last frame's header and usage,
 * every frame's text joined): what the transport answers to a request that did not stream.
 */
export function joinSparkFrames(frames: readonly JsonObject[]): JsonObject {
  const last = frames[frames.length - 1] ?? {};
  const item: JsonObject = { role: 'assistant', index: 0, content: frames.map((frame) => joinedField(frame, 'content')).join('') };
  const reasoning = frames.map((frame) => joinedField(frame, 'reasoning_content')).join('');
  if (reasoning) item.reasoning_content = reasoning;
  const payload = (last.payload as JsonObject | undefined) ?? {};
  const choices = (payload.choices as JsonObject | undefined) ?? {};
  return { header: headerOf(last), payload: { ...payload, choices: { ...choices, text: [item] } } };
}

/**
 * Spark's error codes (`header.code`) in the relay's terms: a refused app or signature is a
 * broken key (401), an app without a licence or tokens an exhausted account
 * (`insufficient_quota`), flow control a rate limit, engine failures the provider's fault, and
 * moderation or parameter errors the request's own. Codes from Spark's WebSocket reference.
 */
const SPARK_ERRORS: Readonly<Record<number, { status: number; code?: string }>> = {
  10003: { status: 400 },
  10004: { status: 400 },
  10005: { status: 400 },
  10006: { status: 429 },
  10007: { status: 429 },
  10008: { status: 503 },
  10009: { status: 502 },
  10010: { status: 502 },
  10011: { status: 502 },
  10012: { status: 500 },
  10013: { status: 400, code: 'content_filter' },
  10014: { status: 400, code: 'content_filter' },
  10015: { status: 401 },
  10016: { status: 429, code: 'insufficient_quota' },
  10019: { status: 400, code: 'content_filter' },
  10110: { status: 503 },
  10163: { status: 400 },
  10222: { status: 502 },
  10907: { status: 400, code: 'context_length_exceeded' },
  11200: { status: 429, code: 'insufficient_quota' },
  11201: { status: 429 },
  11202: { status: 429 },
  11203: { status: 429 },
  11500: { status: 401 },
};

/** The error a frame (or a joined answer) reports in its header, or undefined when its code is 0. */
export function sparkAnswerError(body: unknown): AnswerError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const header = headerOf(body as JsonObject);
  if (typeof header.code !== 'number' || header.code === 0) return undefined;
  const known = SPARK_ERRORS[header.code];
  const message = `iFlytek Spark error ${header.code}: ${typeof header.message === 'string' ? header.message : 'unknown error'}`;
  return { status: known?.status ?? 500, message, code: known?.code ?? String(header.code) };
}

function answerId(frame: JsonObject): string {
  const sid = headerOf(frame).sid;
  return typeof sid === 'string' && sid ? `chatcmpl-${sid}` : 'chatcmpl-spark';
}

/** The usage and text of a joined answer or of one frame. */
export function readSparkAnswer(body: unknown): AnswerReading {
  if (typeof body !== 'object' || body === null) return { text: '' };
  const frame = body as JsonObject;
  return { usage: readSparkUsage(frame), text: joinedField(frame, 'reasoning_content') + joinedField(frame, 'content') };
}

/** A joined Spark answer as an OpenAI chat completion. */
export function openAIResponseFromSpark(answer: JsonObject, model: string): JsonObject {
  const message: JsonObject = { role: 'assistant', content: joinedField(answer, 'content') };
  const reasoning = joinedField(answer, 'reasoning_content');
  if (reasoning) message.reasoning_content = reasoning;
  const usage = openAIUsageOf(readSparkUsage(answer));
  return {
    id: answerId(answer),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    ...(usage ? { usage } : {}),
  };
}

/** Spark's frames as OpenAI chunks, for one request: the first carries the role, the last the finish and (to the meter) the usage. */
export class SparkChunkTranslator {
  private readonly chunks: ChatChunkBuilder;

  constructor(
    model: string,
    private readonly usage: UsageMeter,
  ) {
    this.chunks = new ChatChunkBuilder(model);
  }

  translate(frame: JsonObject): JsonObject[] {
    const error = sparkAnswerError(frame);
    if (error) return [answerErrorChunk(error)];
    this.usage.add(readSparkUsage(frame));
    const delta: JsonObject = {};
    const content = joinedField(frame, 'content');
    const reasoning = joinedField(frame, 'reasoning_content');
    if (content) delta.content = content;
    if (reasoning) delta.reasoning_content = reasoning;
    return [this.chunks.chunk(answerId(frame), delta, isLastSparkFrame(frame) ? 'stop' : null)];
  }
}
