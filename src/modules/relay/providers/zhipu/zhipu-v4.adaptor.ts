import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, type ChannelTypeRow } from '../../../channels/channel-types';
import type { StreamDecoder } from '../../wire/stream-decoder';
import { answerErrorChunk, type AnswerError, type ErrorAnswers, type KnownModels, type NativeAdaptor, type UpstreamTarget } from '../adaptor';
import { readUsage } from '../../wire/openai-usage';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import { zhipuV4Error } from './zhipu-errors';
import { ZhipuTokenService } from './zhipu-token.service';

/** Zhipu's v4 models, for fetch_models (the v4 API lists none). */
const ZHIPU_V4_MODELS: readonly string[] = ['glm-4.6', 'glm-4.5', 'glm-4.5-air', 'glm-4-plus', 'glm-4-air', 'glm-4-airx', 'glm-4-long', 'glm-4-flash', 'glm-4v-plus', 'glm-4v', 'embedding-3', 'embedding-2'];

/**
 * Zhipu's v4 API (channel type 26): OpenAI's bodies and stream (usage in its last chunk) under
 * `/api/paas/v4`, chats and embeddings. An `id.secret` key signs a JWT sent as the bearer token;
 * any other key goes as it is. Zhipu's errors (`{"error": {"code": "1113", …}}`) are read by
 * their business codes, so a bad key or arrears disable the channel.
 */
@Injectable()
export class ZhipuV4Adaptor extends OpenAICompatibleAdaptor implements NativeAdaptor, ErrorAnswers, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.ZHIPU_V4];

  constructor(private readonly tokens: ZhipuTokenService) {
    super({ ...(channelTypeRow(CHANNEL_TYPE.ZHIPU_V4) as ChannelTypeRow), streamUsage: true, apiPath: '/api/paas/v4' });
  }

  override buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { authorization: this.tokens.bearer(target.key) };
  }

  /** For clients of other formats: an error Zhipu sends in the stream (`{"error": {"code", …}}`) is read by its code, so one before any answer fails the attempt as that error. */
  override createStreamDecoder(_target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new SseJsonDecoder((chunk) => {
      const error = zhipuV4Error(chunk, 200);
      if (error) return [answerErrorChunk(error)];
      usage.add(readUsage(chunk.usage));
      return [chunk];
    });
  }

  errorAnswer(status: number, body: unknown): AnswerError | undefined {
    return zhipuV4Error(body, status);
  }

  knownModels(): readonly string[] {
    return ZHIPU_V4_MODELS;
  }
}
