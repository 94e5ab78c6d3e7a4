import { openAIUsageOf } from '../../formats/openai.format';
import { RelayError } from '../../relay-error';
import { answerErrorChunk, type AnswerError, type AnswerReading, type JsonObject } from '../adaptor';
import { ChatChunkBuilder, messageText } from '../openai-chat-parts';
import { tokenCount, type UsageMeter, type UsageReport } from '../usage';

/**
 * Tencent Hunyuan's API 3.0 bodies (hunyuan 2023-09-01: ChatCompletions, GetEmbedding) beside
 * OpenAI's, the internal shape. Answers come wrapped in `{Response: {…}}`, errors too, with
 * status 200 (`Response.Error`); stream events are the Response's members unwrapped, and an
 * error inside a stream is `ErrorMsg`.
 */

/** A Hunyuan channel key: `AppId|SecretId|SecretKey`. API 3.0 signs with the SecretId and SecretKey only; the AppId is kept for new-api's key format. */
export interface TencentCredentials {
  secretId: string;
  secretKey: string;
}

export function parseTencentKey(key: string): TencentCredentials {
  const parts = key.split('|').map((part) => part.trim());
  // `SecretId|SecretKey` is accepted too: the AppId plays no part in the signature.
  const [secretId, secretKey] = parts.length === 3 ? parts.slice(1) : parts;
  if (parts.length < 2 || parts.length > 3 || !secretId || !secretKey) throw new RelayError('channel:unauthorized', 'The Tencent Hunyuan channel key must be AppId|SecretId|SecretKey', 502);
  return { secretId, secretKey };
}

/** OpenAI's chat fields Hunyuan takes, under its names. Hunyuan has no output-length limit to set. */
const CHAT_PARAMETERS: ReadonlyArray<readonly [openai: string, hunyuan: string]> = [
  ['temperature', 'Temperature'],
  ['top_p', 'TopP'],
  ['seed', 'Seed'],
];

const FINISH_REASONS: Readonly<Record<string, string>> = { stop: 'stop', sensitive: 'content_filter', tool_calls: 'tool_calls', length: 'length' };

/** An OpenAI chat body as a ChatCompletions body: text messages (Hunyuan's roles are OpenAI's), sampling and stop. */
export function hunyuanChatFromOpenAI(body: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = (Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []).map((message) => ({
    Role: message?.role === 'developer' ? 'system' : message?.role,
    Content: messageText(message?.content),
  }));
  const request: JsonObject = { Model: model, Messages: messages, Stream: stream };
  for (const [openai, hunyuan] of CHAT_PARAMETERS) if (typeof body[openai] === 'number') request[hunyuan] = body[openai];
  if (typeof body.stop === 'string') request.Stop = [body.stop];
  else if (Array.isArray(body.stop)) request.Stop = body.stop;
  return request;
}

/** An OpenAI embeddings body as GetEmbedding's: one text as Input, several as InputList. */
export function hunyuanEmbeddingsFromOpenAI(body: JsonObject): JsonObject {
  return Array.isArray(body.input) ? { InputList: body.input.map(String) } : { Input: String(body.input ?? '') };
}

/** The Response of an answer (or the event itself, in a stream, which is not wrapped). */
function responseOf(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null) return {};
  const wrapped = (body as JsonObject).Response;
  return typeof wrapped === 'object' && wrapped !== null ? (wrapped as JsonObject) : (body as JsonObject);
}

export function readHunyuanUsage(value: unknown): UsageReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as JsonObject;
  return { promptTokens: tokenCount(usage.PromptTokens), completionTokens: tokenCount(usage.CompletionTokens) };
}

function choicesOf(response: JsonObject): JsonObject[] {
  return Array.isArray(response.Choices) ? (response.Choices as JsonObject[]) : [];
}

function contentOf(part: unknown, field: 'Content' | 'ReasoningContent'): string {
  const value = (part as JsonObject | undefined)?.[field];
  return typeof value === 'string' ? value : '';
}

/** The usage and text of a complete answer or of one stream event. */
export function readHunyuanAnswer(body: unknown): AnswerReading {
  const response = responseOf(body);
  let text = '';
  for (const choice of choicesOf(response)) {
    const part = choice.Message ?? choice.Delta;
    text += contentOf(part, 'ReasoningContent') + contentOf(part, 'Content');
  }
  return { usage: readHunyuanUsage(response.Usage), text };
}

/**
 * Tencent's error codes in the relay's terms: a refused signature or unknown SecretId is a
 * broken key (401), a stopped or unpaid account an exhausted one (`insufficient_quota`), limits
 * a rate limit, engine failures the provider's fault. An expired signature means the gateway's
 * clock is off, which no key fixes. Codes from Tencent Cloud's common and Hunyuan's error lists;
 * a code not listed here is matched by its category (the part before the dot), then is the request's fault.
 */
const TENCENT_ERRORS: Readonly<Record<string, { status: number; code?: string }>> = {
  'AuthFailure.SignatureExpire': { status: 500 },
  AuthFailure: { status: 401 },
  UnauthorizedOperation: { status: 401 },
  'FailedOperation.ServiceStop': { status: 429, code: 'insufficient_quota' },
  'FailedOperation.ServiceStopArrears': { status: 429, code: 'insufficient_quota' },
  'FailedOperation.ResourcePackExhausted': { status: 429, code: 'insufficient_quota' },
  'FailedOperation.FreeResourcePackExhausted': { status: 429, code: 'insufficient_quota' },
  'FailedOperation.ServiceNotActivated': { status: 429, code: 'insufficient_quota' },
  'FailedOperation.UserUnAuthError': { status: 429, code: 'insufficient_quota' },
  ResourceInsufficient: { status: 429, code: 'insufficient_quota' },
  ResourceUnavailable: { status: 429, code: 'insufficient_quota' },
  'FailedOperation.EngineServerLimitExceeded': { status: 429 },
  RequestLimitExceeded: { status: 429 },
  LimitExceeded: { status: 429 },
  'FailedOperation.EngineServerError': { status: 500 },
  'FailedOperation.EngineRequestTimeout': { status: 503 },
  'FailedOperation.ConsoleServerError': { status: 500 },
  InternalError: { status: 500 },
  OperationDenied: { status: 400, code: 'content_filter' },
};

/** Errors inside a stream (`ErrorMsg.Code`): 4000 an internal error, 4001 the model timing out. */
const STREAM_ERROR_STATUS: Readonly<Record<number, number>> = { 4000: 500, 4001: 503 };

/** The error an answer (`Response.Error`) or a stream event (`ErrorMsg`) reports, or undefined. */
export function hunyuanAnswerError(body: unknown): AnswerError | undefined {
  const response = responseOf(body);
  const error = response.Error as JsonObject | undefined;
  if (typeof error === 'object' && error !== null) {
    const code = typeof error.Code === 'string' ? error.Code : 'UnknownError';
    const known = TENCENT_ERRORS[code] ?? TENCENT_ERRORS[code.split('.')[0]];
    return { status: known?.status ?? 400, message: `Tencent Hunyuan error ${code}: ${typeof error.Message === 'string' ? error.Message : ''}`, code: known?.code ?? code };
  }
  const streamError = response.ErrorMsg as JsonObject | undefined;
  if (typeof streamError === 'object' && streamError !== null) {
    const code = typeof streamError.Code === 'number' ? streamError.Code : 0;
    return { status: STREAM_ERROR_STATUS[code] ?? 500, message: `Tencent Hunyuan error ${code}: ${typeof streamError.Msg === 'string' ? streamError.Msg : ''}`, code: String(code) };
  }
  return undefined;
}

function finishReason(value: unknown): string | null {
  return typeof value === 'string' && value ? (FINISH_REASONS[value] ?? 'stop') : null;
}

function answerId(response: JsonObject): string {
  return typeof response.Id === 'string' && response.Id ? response.Id : 'chatcmpl-hunyuan';
}

function openAIMessage(part: unknown): JsonObject {
  const message: JsonObject = {};
  const content = contentOf(part, 'Content');
  const reasoning = contentOf(part, 'ReasoningContent');
  if (content) message.content = content;
  if (reasoning) message.reasoning_content = reasoning;
  return message;
}

/** A ChatCompletions answer as an OpenAI chat completion. */
export function openAIResponseFromHunyuan(body: unknown, model: string): JsonObject {
  const response = responseOf(body);
  const choices = choicesOf(response).map((choice, index) => ({
    index,
    message: { role: 'assistant', content: '', ...openAIMessage(choice.Message) },
    finish_reason: finishReason(choice.FinishReason) ?? 'stop',
  }));
  const usage = openAIUsageOf(readHunyuanUsage(response.Usage));
  return {
    id: answerId(response),
    object: 'chat.completion',
    created: typeof response.Created === 'number' ? response.Created : Math.floor(Date.now() / 1000),
    model,
    choices,
    ...(usage ? { usage } : {}),
  };
}

/** A GetEmbedding answer as OpenAI's embeddings answer. */
export function openAIEmbeddingsFromHunyuan(body: unknown, model: string): JsonObject {
  const response = responseOf(body);
  const data = (Array.isArray(response.Data) ? (response.Data as JsonObject[]) : []).map((entry, index) => ({
    object: 'embedding',
    index: typeof entry.Index === 'number' ? entry.Index : index,
    embedding: Array.isArray(entry.Embedding) ? entry.Embedding : [],
  }));
  const usage = response.Usage as JsonObject | undefined;
  const prompt = tokenCount(usage?.PromptTokens ?? usage?.TotalTokens);
  return { object: 'list', model, data, usage: { prompt_tokens: prompt, total_tokens: tokenCount(usage?.TotalTokens) || prompt } };
}

/** Hunyuan's stream events (usage in each, as running totals) as OpenAI chunks, for one request. */
export class HunyuanChunkTranslator {
  private readonly chunks: ChatChunkBuilder;

  constructor(
    model: string,
    private readonly usage: UsageMeter,
  ) {
    this.chunks = new ChatChunkBuilder(model);
  }

  translate(event: JsonObject): JsonObject[] {
    const error = hunyuanAnswerError(event);
    if (error) return [answerErrorChunk(error)];
    const response = responseOf(event);
    this.usage.add(readHunyuanUsage(response.Usage));
    const choice = choicesOf(response)[0];
    if (!choice) return [];
    return [this.chunks.chunk(answerId(response), openAIMessage(choice.Delta), finishReason(choice.FinishReason))];
  }
}
