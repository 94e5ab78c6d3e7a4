import type { RelayEndpoint } from '../../relay-endpoints';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading } from '../adaptor';
import { answerErrorChunk } from '../adaptor';
import { SseDecoder, type SseEvent } from '../../wire/sse-decoder';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * Replicate's predictions API in OpenAI's terms, without I/O: the prediction a chat or image
 * request creates, and the chat answer, image list or stream chunks a prediction becomes.
 *
 * Chat template (Replicate's language models take one `prompt` and a `system_prompt`, and apply
 * their own chat template around them):
 * - system (and developer) messages, joined by a blank line, become `system_prompt`;
 * - a conversation of one user message sends that message's text as the prompt, as it is;
 * - a longer conversation becomes a transcript, one turn per paragraph, labelled `User:` and
 *   `Assistant:`, ending with `Assistant:` so the model answers the last turn.
 * Only text parts are sent: images and tool calls in the messages are left out.
 */

/** Where a model's predictions are created: an official model by name, or a version (`owner/name:version`, or the bare 64-hex id). */
export interface PredictionTarget {
  path: string;
  /** For versions: the `version` member of the body. */
  version?: string;
}

const VERSION_ID = /^[0-9a-f]{64}$/i;

/** The create-prediction path of a model name, or undefined when the name is neither `owner/name` nor a version. */
export function predictionTarget(model: string): PredictionTarget | undefined {
  if (model.includes(':') || VERSION_ID.test(model)) return { path: '/v1/predictions', version: model };
  const [owner, name, extra] = model.split('/');
  if (!owner || !name || extra !== undefined) return undefined;
  return { path: `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions` };
}

/**
 * OpenAI chat parameters → the inputs Replicate's language models name them by. Models differ
 * (Llama 3 reads `max_tokens`, older ones `max_new_tokens`); inputs a model does not declare are ignored.
 */
const CHAT_INPUTS: Readonly<Record<string, readonly string[]>> = {
  max_tokens: ['max_tokens', 'max_new_tokens'],
  max_completion_tokens: ['max_tokens', 'max_new_tokens'],
  temperature: ['temperature'],
  top_p: ['top_p'],
  top_k: ['top_k'],
  presence_penalty: ['presence_penalty'],
  frequency_penalty: ['frequency_penalty'],
  seed: ['seed'],
};

/** OpenAI image sizes → the aspect ratios image models such as FLUX take. */
const ASPECT_RATIOS: Readonly<Record<string, string>> = {
  '256x256': '1:1',
  '512x512': '1:1',
  '1024x1024': '1:1',
  '1792x1024': '16:9',
  '1024x1792': '9:16',
  '1536x1024': '3:2',
  '1024x1536': '2:3',
};

/** The create-prediction body of an OpenAI request to a model: an image generation, or a chat. */
export function predictionFromOpenAI(endpoint: RelayEndpoint, body: JsonObject, target: PredictionTarget, stream: boolean): JsonObject {
  return endpoint === 'images' ? predictionFromOpenAIImage(body, target) : predictionFromOpenAIChat(body, target, stream);
}

/** A succeeded prediction as OpenAI's answer to the endpoint asked: an image list, or a chat completion. */
export function openAIFromPrediction(endpoint: RelayEndpoint, prediction: JsonObject, model: string): JsonObject {
  return endpoint === 'images' ? openAIImagesFromPrediction(prediction) : openAIChatFromPrediction(prediction, model);
}

/** The create-prediction body of an OpenAI chat request. */
export function predictionFromOpenAIChat(body: JsonObject, target: PredictionTarget, stream: boolean): JsonObject {
  const messages = Array.isArray(body.messages) ? (body.messages as JsonObject[]) : [];
  const system = messages.filter((message) => message.role === 'system' || message.role === 'developer').map(messageText);
  const turns = messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
  const input: JsonObject = { prompt: promptOf(turns) };
  if (system.length > 0) input.system_prompt = system.join('\n\n');
  for (const [parameter, names] of Object.entries(CHAT_INPUTS)) {
    if (body[parameter] !== undefined && body[parameter] !== null) for (const name of names) input[name] = body[parameter];
  }
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop : [];
  if (stop.length > 0) input.stop_sequences = stop.join(',');
  return withVersion({ input, ...(stream ? { stream: true } : {}) }, target);
}

/** The create-prediction body of an OpenAI image generation (an image model such as black-forest-labs/flux-schnell). */
export function predictionFromOpenAIImage(body: JsonObject, target: PredictionTarget): JsonObject {
  const input: JsonObject = { prompt: typeof body.prompt === 'string' ? body.prompt : '' };
  if (typeof body.n === 'number' && body.n > 0) input.num_outputs = body.n;
  const aspectRatio = typeof body.size === 'string' ? ASPECT_RATIOS[body.size] : undefined;
  if (aspectRatio) input.aspect_ratio = aspectRatio;
  return withVersion({ input }, target);
}

function withVersion(body: JsonObject, target: PredictionTarget): JsonObject {
  return target.version ? { version: target.version, ...body } : body;
}

function promptOf(turns: JsonObject[]): string {
  // Nothing to answer: Replicate refuses the empty prompt (422), as the request's own fault.
  if (turns.length === 0) return '';
  if (turns.length === 1 && turns[0].role === 'user') return messageText(turns[0]);
  const transcript = turns.map((turn) => `${turn.role === 'assistant' ? 'Assistant' : 'User'}: ${messageText(turn)}`);
  return [...transcript, 'Assistant:'].join('\n\n');
}

function messageText(message: JsonObject): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return (message.content as JsonObject[])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

/** The states a prediction ends in; `starting` and `processing` mean it is still running. */
export const FINISHED_STATUSES: ReadonlySet<string> = new Set(['succeeded', 'failed', 'canceled']);

/** A prediction's output as text: language models answer a list of tokens (or one string). */
export function predictionText(prediction: JsonObject): string {
  const output = prediction.output;
  if (typeof output === 'string') return output;
  return Array.isArray(output) ? output.filter((piece): piece is string => typeof piece === 'string').join('') : '';
}

/** The token counts of a prediction's `metrics`, when the model reports them. */
export function predictionUsage(prediction: JsonObject): UsageReport | undefined {
  const metrics = prediction.metrics as JsonObject | undefined;
  if (typeof metrics !== 'object' || metrics === null) return undefined;
  if (metrics.input_token_count === undefined && metrics.output_token_count === undefined) return undefined;
  return { promptTokens: tokenCount(metrics.input_token_count), completionTokens: tokenCount(metrics.output_token_count) };
}

export function readPrediction(body: unknown): AnswerReading {
  if (typeof body !== 'object' || body === null) return { text: '' };
  const prediction = body as JsonObject;
  return { usage: predictionUsage(prediction), text: predictionText(prediction) };
}

/** A succeeded prediction of a language model as OpenAI's chat completion. */
export function openAIChatFromPrediction(prediction: JsonObject, model: string): JsonObject {
  const usage = predictionUsage(prediction);
  const answer: JsonObject = {
    id: `chatcmpl-${String(prediction.id ?? 'replicate')}`,
    object: 'chat.completion',
    created: createdSeconds(prediction),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: predictionText(prediction) }, finish_reason: 'stop', logprobs: null }],
  };
  if (usage) {
    const prompt = usage.promptTokens ?? 0;
    const completion = usage.completionTokens ?? 0;
    answer.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
  return answer;
}

/** A succeeded prediction of an image model (one URL or a list of them) as OpenAI's image answer. */
export function openAIImagesFromPrediction(prediction: JsonObject): JsonObject {
  const output = prediction.output;
  const urls = (Array.isArray(output) ? output : [output]).filter((url): url is string => typeof url === 'string' && url !== '');
  return { created: createdSeconds(prediction), data: urls.map((url) => ({ url })) };
}

function createdSeconds(prediction: JsonObject): number {
  const parsed = typeof prediction.created_at === 'string' ? Date.parse(prediction.created_at) : NaN;
  return Math.floor((Number.isFinite(parsed) ? parsed : Date.now()) / 1000);
}

/**
 * Per request: Replicate's output stream (`event: output` with the raw text as data, then
 * `event: done`, or `event: error`) as OpenAI chat chunks. A `done` event carrying the
 * prediction's `metrics` (the gateway's own stream of a polled prediction) reports its usage.
 */
export class ReplicateStreamDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly created = Math.floor(Date.now() / 1000);
  private started = false;
  private finished = false;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  push(bytes: Buffer): JsonObject[] {
    return this.sse.push(bytes).flatMap((event) => this.translate(event));
  }

  end(): JsonObject[] {
    return this.sse.end().flatMap((event) => this.translate(event));
  }

  private translate(event: SseEvent): JsonObject[] {
    if (this.finished) return [];
    if (event.event === 'output') {
      const delta: JsonObject = this.started ? { content: event.data } : { role: 'assistant', content: event.data };
      this.started = true;
      return [this.chunk(delta, null)];
    }
    if (event.event === 'done') {
      this.finished = true;
      this.usage.add(predictionUsage(parseObject(event.data) ?? {}));
      return [this.chunk({}, 'stop')];
    }
    if (event.event === 'error') {
      this.finished = true;
      const error = parseObject(event.data);
      const message = typeof error?.detail === 'string' ? error.detail : event.data || 'The prediction failed';
      // Before any output the attempt fails (and fails over); later the client gets the error in its stream.
      return [answerErrorChunk({ status: 502, message, code: 'prediction_failed' })];
    }
    return [];
  }

  private chunk(delta: JsonObject, finishReason: string | null): JsonObject {
    return { id: 'chatcmpl-replicate', object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}

/** The JSON object a text holds, or undefined. */
export function parseObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** One event in the framing of Replicate's output stream: a multi-line text is one data line per line, as Replicate sends it. */
export function sseEvent(event: SseEvent): string {
  const name = event.event ? `event: ${event.event}\n` : '';
  return `${name}${event.data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}

/** A finished prediction in the framing of Replicate's output stream, for a stream request answered by polling. */
export function predictionAsStream(prediction: JsonObject): string {
  const text = predictionText(prediction);
  const output = text ? sseEvent({ event: 'output', data: text }) : '';
  return `${output}${sseEvent({ event: 'done', data: JSON.stringify({ metrics: prediction.metrics ?? {} }) })}`;
}
