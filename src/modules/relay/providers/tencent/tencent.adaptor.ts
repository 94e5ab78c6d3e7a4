import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import { ConvertingAdaptor } from '../converting-adaptor';
import type { RelayEndpoint } from '../../relay-endpoints';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, KnownModels, NativeAdaptor, OutgoingCall, UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import {
  HunyuanChunkTranslator,
  hunyuanAnswerError,
  hunyuanChatFromOpenAI,
  hunyuanEmbeddingsFromOpenAI,
  openAIEmbeddingsFromHunyuan,
  openAIResponseFromHunyuan,
  parseTencentKey,
  readHunyuanAnswer,
} from './hunyuan-content';
import { tc3Authorization } from './tc3-signature';

/** Hunyuan's API version and the action behind each endpoint it serves. */
const API_VERSION = '2023-09-01';
const SERVICE = 'hunyuan';
const ACTIONS: Partial<Record<RelayEndpoint, string>> = { chat: 'ChatCompletions', embeddings: 'GetEmbedding' };
const CONTENT_TYPE = 'application/json';

/** The models fetch_models offers (Hunyuan's API 3.0 has no model list). */
const HUNYUAN_MODELS: readonly string[] = ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-standard-256K', 'hunyuan-pro', 'hunyuan-turbo', 'hunyuan-turbos-latest', 'hunyuan-large', 'hunyuan-t1-latest', 'hunyuan-embedding'];

/**
 * Tencent Hunyuan (channel type 23) through Tencent Cloud API 3.0: one URL (`/`), the action
 * in X-TC-Action (ChatCompletions, GetEmbedding), each request signed TC3-HMAC-SHA256 with the
 * key's SecretId and SecretKey over its final body. Errors come with status 200 in
 * `Response.Error` (AnswerErrors); streams are SSE of the Response's members.
 */
@Injectable()
export class TencentAdaptor extends ConvertingAdaptor implements NativeAdaptor, AnswerErrors, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.TENCENT];
  readonly format = 'tencent';
  readonly streamUsageMarker = /"Usage"/;

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (!ACTIONS[target.endpoint]) return undefined;
    return new URL(`${(target.channel.baseUrl || defaultBaseUrl(CHANNEL_TYPE.TENCENT)).replace(/\/+$/, '')}/`);
  }

  buildHeaders(target: UpstreamTarget, call: OutgoingCall): Record<string, string> {
    const { secretId, secretKey } = parseTencentKey(target.key);
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      authorization: tc3Authorization({ secretId, secretKey, service: SERVICE, host: call.url.host, contentType: CONTENT_TYPE, payload: call.body, timestamp }),
      'content-type': CONTENT_TYPE,
      'x-tc-action': ACTIONS[target.endpoint] ?? '',
      'x-tc-version': API_VERSION,
      'x-tc-timestamp': String(timestamp),
    };
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (target.endpoint === 'embeddings') return Promise.resolve(hunyuanEmbeddingsFromOpenAI(body));
    return Promise.resolve(hunyuanChatFromOpenAI(body, target.upstreamModel, target.stream));
  }

  answerError(body: unknown): AnswerError | undefined {
    return hunyuanAnswerError(body);
  }

  parseResponse(body: unknown): AnswerReading {
    return readHunyuanAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    if (target.endpoint === 'embeddings') return openAIEmbeddingsFromHunyuan(body, target.upstreamModel);
    return openAIResponseFromHunyuan(body, target.upstreamModel);
  }

  override parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return readHunyuanAnswer(JSON.parse(data));
    } catch {
      return undefined;
    }
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const events = new HunyuanChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => events.translate(event));
  }

  knownModels(): readonly string[] {
    return HUNYUAN_MODELS;
  }
}
