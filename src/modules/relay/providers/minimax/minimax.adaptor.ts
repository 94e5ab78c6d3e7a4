import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, type ChannelTypeRow } from '../../../channels/channel-types';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, KnownModels, NativeAdaptor, UpstreamTarget } from '../adaptor';
import { openAIAnswerText } from '../../wire/openai-answer';
import { readUsage } from '../../wire/openai-usage';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { tokenCount, type UsageMeter } from '../../wire/usage';
import { MiniMaxChunkTranslator, miniMaxAnswerError, miniMaxEmbeddingsRequest, openAIChatFromMiniMax, openAIEmbeddingsFromMiniMax } from './minimax-wire';

/** MiniMax's paths under the base URL, by endpoint. */
const PATHS: Readonly<Partial<Record<UpstreamTarget['endpoint'], string>>> = {
  chat: '/v1/text/chatcompletion_v2',
  embeddings: '/v1/embeddings',
};

/** MiniMax has no model-list API: fetch_models answers its current models. */
const MINIMAX_MODELS = ['MiniMax-M2', 'MiniMax-M1', 'MiniMax-Text-01', 'abab6.5s-chat', 'embo-01'];

/**
 * MiniMax (channel type 35): chat completion v2 (OpenAI's bodies and stream chunks plus
 * `base_resp`) and embeddings (`{model, texts, type}` → `{vectors, total_tokens}`), with the
 * key as a bearer token. Its own format, not OpenAI's: errors come inside HTTP 200 answers
 * and streams, so every answer is read (AnswerErrors) and translated, never passed through.
 */
@Injectable()
export class MiniMaxAdaptor extends OpenAICompatibleAdaptor implements NativeAdaptor, AnswerErrors, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.MINIMAX];
  override readonly format: WireFormat = 'minimax';

  constructor() {
    // The last stream event carries the usage unasked: no stream_options to add.
    super({ ...(channelTypeRow(CHANNEL_TYPE.MINIMAX) as ChannelTypeRow), streamUsage: false });
  }

  override buildUrl(target: UpstreamTarget): URL | undefined {
    const path = PATHS[target.endpoint];
    return path ? new URL(`${this.baseUrl(target.channel)}${path}`) : undefined;
  }

  override async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (target.endpoint === 'embeddings') return miniMaxEmbeddingsRequest(body, target.upstreamModel);
    return super.convertRequest(target, body);
  }

  answerError(body: unknown): AnswerError | undefined {
    return miniMaxAnswerError(body);
  }

  override parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    const answer = body as JsonObject;
    if ('vectors' in answer) return { usage: { promptTokens: tokenCount(answer.total_tokens) }, text: '' };
    return { usage: readUsage(answer.usage), text: openAIAnswerText(answer) };
  }

  /** The target is optional only because the OpenAI base reads none; the relay always gives it. */
  override toOpenAIResponse(body: unknown, target?: UpstreamTarget): JsonObject {
    if (target?.endpoint === 'embeddings') return openAIEmbeddingsFromMiniMax(body as JsonObject, target.upstreamModel);
    return openAIChatFromMiniMax(body as JsonObject);
  }

  override createStreamDecoder(_target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new MiniMaxChunkTranslator(usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }

  /** Answers are always translated, so their bytes are never read for usage on the way. */
  override readUsageFromBytes(): undefined {
    return undefined;
  }

  knownModels(): readonly string[] {
    return MINIMAX_MODELS;
  }
}
