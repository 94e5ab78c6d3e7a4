import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import { answerErrorChunk, type AnswerError } from '../adaptor';
import { readUsage } from '../../wire/openai-usage';
import type { UsageMeter } from '../../wire/usage';

/**
 * Dify's chat-messages API beside OpenAI's chat format. Dify keeps a conversation's history on
 * its side by conversation_id; the gateway sends none, so each request starts a conversation,
 * and the client's earlier turns travel inside the query.
 */

/** Dify's `user` when the client names none: one stable end user for the gateway's calls. */
export const DIFY_DEFAULT_USER = 'api-gateway';

/** Dify's error codes the relay reads otherwise than by their status: an exhausted model quota is the channel's. */
const ERROR_CODES: Readonly<Record<string, { status: number; code?: string }>> = {
  unauthorized: { status: 401 },
  provider_quota_exceeded: { status: 429, code: 'insufficient_quota' },
  provider_not_initialize: { status: 503 },
  app_unavailable: { status: 503 },
};

interface ChatTurn {
  role: string;
  text: string;
}

/**
 * An OpenAI chat body as Dify's `{inputs, query, response_mode, user, files}`. One user message
 * is the query as it is; a longer conversation becomes a transcript (`ROLE:\ntext` per turn, the
 * last user turn last) so the app sees the context it would otherwise keep itself. Image URLs
 * become `files` with `transfer_method: remote_url`; inline (data:) images would need Dify's
 * upload API and are refused.
 */
export function difyRequestFromOpenAI(body: JsonObject, stream: boolean): JsonObject {
  const turns: ChatTurn[] = [];
  const files: JsonObject[] = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as JsonObject[]) : []) {
    if (typeof message !== 'object' || message === null) continue;
    const role = typeof message.role === 'string' ? message.role : 'user';
    const text = messageText(message.content, role === 'user' ? files : undefined);
    if (text) turns.push({ role, text });
  }
  const query = turns.length === 1 && turns[0].role === 'user' ? turns[0].text : turns.map((turn) => `${turn.role.toUpperCase()}:\n${turn.text}`).join('\n\n');
  const request: JsonObject = {
    inputs: isObject(body.inputs) ? body.inputs : {},
    query,
    response_mode: stream ? 'streaming' : 'blocking',
    user: typeof body.user === 'string' && body.user ? body.user : DIFY_DEFAULT_USER,
    // A title would cost the app another model call for a conversation nobody reopens.
    auto_generate_name: false,
  };
  if (files.length > 0) request.files = files;
  return request;
}

function messageText(content: unknown, files: JsonObject[] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    if (part?.type !== 'image_url' || !files) continue;
    const imageUrl = part.image_url as JsonObject | string | undefined;
    const url = typeof imageUrl === 'string' ? imageUrl : imageUrl?.url;
    if (typeof url !== 'string') continue;
    if (!/^https?:\/\//i.test(url)) throw new RelayError('invalid_request', 'Dify channels take images by http(s) URL only, not inline data', 400);
    files.push({ type: 'image', transfer_method: 'remote_url', url });
  }
  return texts.join('\n');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error a Dify body reports (its `{code, message, status}`, or a stream's `error` event), or undefined. */
export function difyAnswerError(body: unknown): AnswerError | undefined {
  if (!isObject(body) || body.event !== 'error') return undefined;
  const code = typeof body.code === 'string' ? body.code : undefined;
  const known = code ? ERROR_CODES[code] : undefined;
  const status = known?.status ?? (typeof body.status === 'number' && body.status >= 400 ? body.status : 500);
  return { status, message: typeof body.message === 'string' && body.message ? body.message : 'Dify reported an error', code: known?.code ?? code };
}

/** A blocking answer (`{event: "message", answer, metadata: {usage}}`) as OpenAI's chat completion, named after the client's model. */
export function openAIResponseFromDify(body: JsonObject, model: string): JsonObject {
  const usage = (body.metadata as JsonObject | undefined)?.usage as JsonObject | undefined;
  return {
    id: String(body.message_id ?? body.id ?? ''),
    object: 'chat.completion',
    created: typeof body.created_at === 'number' ? body.created_at : Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: typeof body.answer === 'string' ? body.answer : '' }, finish_reason: 'stop' }],
    ...(usage ? { usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens } } : {}),
  };
}

/** The usage of a Dify answer or `message_end` event, from its metadata. */
export function difyUsage(body: JsonObject): ReturnType<typeof readUsage> {
  return readUsage((body.metadata as JsonObject | undefined)?.usage);
}

/** The answer text of a blocking answer or a `message` / `agent_message` event. */
export function difyAnswerText(body: JsonObject): string {
  const answers = body.event === undefined || body.event === 'message' || body.event === 'agent_message';
  return answers && typeof body.answer === 'string' ? body.answer : '';
}

/**
 * Per request: Dify's stream events as OpenAI chunks. `message` and `agent_message` carry the
 * answer's text, `message_end` its usage and end, `error` an error; `ping`, `agent_thought`
 * (the agent's reasoning, repeated whole per step), workflow, node, file and TTS events carry
 * nothing the client's answer shows.
 */
export class DifyChunkTranslator {
  private started = false;

  constructor(
    private readonly model: string,
    private readonly usage: UsageMeter,
  ) {}

  translate(event: JsonObject): JsonObject[] {
    const error = difyAnswerError(event);
    if (error) return [answerErrorChunk(error)];
    const text = difyAnswerText(event);
    if (text) {
      const delta = this.started ? { content: text } : { role: 'assistant', content: text };
      this.started = true;
      return [this.chunk(event, delta, null)];
    }
    if (event.event !== 'message_end') return [];
    this.usage.add(difyUsage(event));
    return [this.chunk(event, this.started ? {} : { role: 'assistant', content: '' }, 'stop')];
  }

  private chunk(event: JsonObject, delta: JsonObject, finishReason: string | null): JsonObject {
    const created = typeof event.created_at === 'number' ? event.created_at : undefined;
    return { id: String(event.message_id ?? event.id ?? ''), object: 'chat.completion.chunk', created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}
