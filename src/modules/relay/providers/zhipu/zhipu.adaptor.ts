import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import { ConvertingAdaptor } from '../converting-adaptor';
import type { RelayChannel } from '../../caches/relay-channel';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, ErrorAnswers, KnownModels, NativeAdaptor, UpstreamTarget } from '../adaptor';
import type { UsageMeter } from '../../wire/usage';
import { zhipuError } from './zhipu-errors';
import { ZhipuTokenService } from './zhipu-token.service';
import { openAIResponseFromZhipuV3, readZhipuV3Answer, ZhipuV3StreamDecoder, zhipuRequestFromOpenAI, zhipuV3AnswerError } from './zhipu-v3';

/** The models of Zhipu's v3 model API (it has no list API). */
const ZHIPU_V3_MODELS: readonly string[] = ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'];

/**
 * Zhipu's v3 model API (channel type 16): chats through `invoke` and `sse-invoke`, the model in
 * the path, authenticated by a JWT signed with the `id.secret` key's secret (sent as the
 * Authorization header as it is, as Zhipu's v3 SDKs send it). Errors come inside 200 answers.
 * Its format is `zhipu`: every client converts through OpenAI's shape.
 */
@Injectable()
export class ZhipuAdaptor extends ConvertingAdaptor implements NativeAdaptor, AnswerErrors, ErrorAnswers, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.ZHIPU];
  readonly format = 'zhipu';
  readonly streamUsageMarker = /"usage"/;

  constructor(private readonly tokens: ZhipuTokenService) {
    super();
  }

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    return new URL(`${baseUrl(target.channel)}/api/paas/v3/model-api/${encodeURIComponent(target.upstreamModel)}/${target.stream ? 'sse-invoke' : 'invoke'}`);
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { authorization: this.tokens.token(target.key), accept: target.stream ? 'text/event-stream' : 'application/json' };
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return Promise.resolve(zhipuRequestFromOpenAI(body, target.stream));
  }

  parseResponse(body: unknown): AnswerReading {
    return readZhipuV3Answer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromZhipuV3(body, target.upstreamModel);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new ZhipuV3StreamDecoder(target.upstreamModel, usage);
  }

  answerError(body: unknown): AnswerError | undefined {
    return zhipuV3AnswerError(body);
  }

  /** An error status with v3's body (`{code, msg, success: false}`) is read by its code too. */
  errorAnswer(status: number, body: unknown): AnswerError | undefined {
    if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
    const { code, msg } = body as JsonObject;
    return zhipuError(code, msg, status);
  }

  knownModels(): readonly string[] {
    return ZHIPU_V3_MODELS;
  }
}

/** The channel's base URL without a pasted API path: the adaptor adds `/api/paas/v3/model-api` itself. */
function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/api\/paas\/v3(\/model-api)?$/, '');
}
