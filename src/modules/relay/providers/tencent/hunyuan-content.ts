import { openAIUsageOf } from '../../wire/openai-usage';
import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError, type AnswerReading } from '../adaptor';
import { ChatChunkBuilder, messageText } from '../openai-chat-parts';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

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

/** An OpenAI message's content parts as Hunyuan's Contents (text and image URLs, data URLs included), for its vision models. */
function hunyuanContents(content: unknown): JsonObject[] | undefined {
  if (!Array.isArray(content) || !(content as JsonObject[]).some((part) => part?.type === 'image_url')) return undefined;
  const contents: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text' && typeof part.text === 'string') contents.push({ Type: 'text', Text: part.text });
    const image = part?.type === 'image_url' ? (part.image_url as JsonObject | string | undefined) : undefined;
    const url = typeof image === 'string' ? image : image?.url;
    if (typeof url === 'string') contents.push({ Type: 'image_url', ImageUrl: { Url: url } });
  }
  return contents;
}

/** An OpenAI tool call (in an assistant message) as Hunyuan's. */
function hunyuanToolCall(call: JsonObject): JsonObject {
  const fn = (call.function as JsonObject | undefined) ?? {};
  return { Id: call.id, Type: 'function', Function: { Name: fn.name, Arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' } };
}

function hunyuanMessage(message: JsonObject): JsonObject {
  const converted: JsonObject = { Role: message?.role === 'developer' ? 'system' : message?.role };
  const contents = hunyuanContents(message?.content);
  const text = messageText(message?.content);
  if (contents) converted.Contents = contents;
  // An assistant turn that only called tools has no text, and Hunyuan refuses an empty Content.
  else if (text || !Array.isArray(message?.tool_calls)) converted.Content = text;
  if (Array.isArray(message?.tool_calls)) converted.ToolCalls = (message.tool_calls as JsonObject[]).map(hunyuanToolCall);
  if (typeof message?.tool_call_id === 'string') converted.ToolCallId = message.tool_call_id;
  return converted;
}

/** OpenAI's tools as Hunyuan's: the parameters' JSON Schema goes as a JSON string. */
function hunyuanTools(tools: unknown): JsonObject[] {
  return (Array.isArray(tools) ? (tools as JsonObject[]) : [])
    .filter((tool) => tool?.type === 'function')
    .map((tool) => {
      const fn = tool.function as JsonObject;
      return { Type: 'function', Function: { Name: fn.name, Description: fn.description, Parameters: JSON.stringify(fn.parameters ?? { type: 'object', properties: {} }) } };
    });
}

/**
 * OpenAI's tool_choice as Hunyuan's ToolChoice (none, auto, custom with CustomTool). Hunyuan has
 * no "any tool": `required` is left to its default (auto).
 */
function addToolChoice(request: JsonObject, choice: unknown, tools: JsonObject[]): void {
  if (choice === 'none' || choice === 'auto') request.ToolChoice = choice;
  const name = ((choice as JsonObject | undefined)?.function as JsonObject | undefined)?.name;
  const custom = tools.find((tool) => (tool.Function as JsonObject).Name === name);
  if (custom) {
    request.ToolChoice = 'custom';
    request.CustomTool = custom;
  }
}

/** An OpenAI chat body as a ChatCompletions body: messages (Hunyuan's roles are OpenAI's), images, tools, sampling and stop. */
export function hunyuanChatFromOpenAI(body: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = (Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []).map(hunyuanMessage);
  const request: JsonObject = { Model: model, Messages: messages, Stream: stream };
  for (const [openai, hunyuan] of CHAT_PARAMETERS) if (typeof body[openai] === 'number') request[hunyuan] = body[openai];
  if (typeof body.stop === 'string') request.Stop = [body.stop];
  else if (Array.isArray(body.stop)) request.Stop = body.stop;
  const tools = hunyuanTools(body.tools);
  if (tools.length > 0) {
    request.Tools = tools;
    addToolChoice(request, body.tool_choice, tools);
  }
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
    for (const call of toolCallsOf(part)) {
      const fn = (call.Function as JsonObject | undefined) ?? {};
      text += `${typeof fn.Name === 'string' ? fn.Name : ''}${typeof fn.Arguments === 'string' ? fn.Arguments : ''}`;
    }
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

function toolCallsOf(part: unknown): JsonObject[] {
  const calls = (part as JsonObject | undefined)?.ToolCalls;
  return Array.isArray(calls) ? (calls as JsonObject[]) : [];
}

/** Hunyuan's tool call as OpenAI's. */
function openAIToolCall(call: JsonObject): JsonObject {
  const fn = (call.Function as JsonObject | undefined) ?? {};
  return { id: call.Id, type: 'function', function: { name: fn.Name, arguments: typeof fn.Arguments === 'string' ? fn.Arguments : '' } };
}

/** A ChatCompletions answer as an OpenAI chat completion. */
export function openAIResponseFromHunyuan(body: unknown, model: string): JsonObject {
  const response = responseOf(body);
  const choices = choicesOf(response).map((choice, index) => {
    const toolCalls = toolCallsOf(choice.Message).map(openAIToolCall);
    const message: JsonObject = { role: 'assistant', content: toolCalls.length > 0 ? null : '', ...openAIMessage(choice.Message) };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return { index, message, finish_reason: finishReason(choice.FinishReason) ?? 'stop' };
  });
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
  /** OpenAI's index of each tool call, by Hunyuan's id: Hunyuan repeats a call's id in each of its pieces, OpenAI numbers them. */
  private readonly toolCallIndexes = new Map<string, number>();

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
    const delta = openAIMessage(choice.Delta);
    const toolCalls = toolCallsOf(choice.Delta).map((call) => this.toolCallPiece(call));
    if (toolCalls.length > 0) delta.tool_calls = toolCalls;
    return [this.chunks.chunk(answerId(response), delta, finishReason(choice.FinishReason))];
  }

  /** A piece of a tool call: its id, type and name the first time the call shows, then only more of its arguments. */
  private toolCallPiece(call: JsonObject): JsonObject {
    const { id, type, function: fn } = openAIToolCall(call);
    const key = typeof id === 'string' ? id : '';
    const known = this.toolCallIndexes.get(key);
    if (known !== undefined) return { index: known, function: { arguments: (fn as JsonObject).arguments } };
    const index = this.toolCallIndexes.size;
    this.toolCallIndexes.set(key, index);
    return { index, id, type, function: fn };
  }
}
