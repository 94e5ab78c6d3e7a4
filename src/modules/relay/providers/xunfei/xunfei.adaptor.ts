import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import { OutboundGuardService } from '../../../outbound/outbound-guard.service';
import { ConvertingAdaptor } from '../converting-adaptor';
import type { UpstreamAnswer } from '../../../outbound/upstream-answer';
import type { UpstreamCall } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, KnownModels, NativeAdaptor, OwnTransport, UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import { openAIResponseFromSpark, parseSparkKey, readSparkAnswer, sparkAnswerError, SparkChunkTranslator, sparkRequestFromOpenAI } from './spark-content';
import { httpSchemeUrl } from '../socket-url';
import { exchangeSparkFrames, signedSparkUrl } from './spark-socket';
import { SPARK_KNOWN_MODELS, sparkVersion } from './spark-versions';

/**
 * iFlytek Spark (channel type 18): chat over Spark's WebSocket API. The version (the URL's
 * path and the frame's domain) comes from the model name or the channel's `other` field; the
 * URL is signed with the APISecret at each call; the call is a WebSocket exchange of frames
 * (OwnTransport), through the outbound guard like every other call. Streams reach the relay
 * as server-sent events of Spark's frames, whole answers as one joined frame; errors in a
 * frame's header fail the attempt as their status would (AnswerErrors).
 */
@Injectable()
export class XunfeiAdaptor extends ConvertingAdaptor implements NativeAdaptor, OwnTransport, AnswerErrors, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.XUNFEI];
  readonly format = 'xunfei';
  readonly streamUsageMarker = /"usage"/;

  constructor(private readonly guard: OutboundGuardService) {
    super();
  }

  /** The unsigned WebSocket URL of the call's version (signed in `call`, where the date is taken). */
  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    const base = (target.channel.baseUrl || defaultBaseUrl(CHANNEL_TYPE.XUNFEI)).replace(/\/+$/, '');
    return new URL(`${base}${sparkVersion(target.upstreamModel, target.channel.other).path}`);
  }

  /** The signature travels in the URL, not in headers. */
  buildHeaders(): Record<string, string> {
    return {};
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const { appId } = parseSparkKey(target.key);
    return Promise.resolve(sparkRequestFromOpenAI(body, appId, sparkVersion(target.upstreamModel, target.channel.other)));
  }

  call(target: UpstreamTarget, request: UpstreamCall): Promise<UpstreamAnswer> {
    try {
      const credentials = parseSparkKey(target.key);
      this.guard.assertUrlAllowed(httpSchemeUrl(request.url));
      return exchangeSparkFrames(signedSparkUrl(request.url, credentials, new Date()), String(request.body ?? ''), {
        stream: target.stream,
        signal: request.signal,
        headersTimeoutMs: request.headersTimeoutMs,
        bodyTimeoutMs: request.bodyTimeoutMs,
        lookup: this.guard.lookup,
      });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  answerError(body: unknown): AnswerError | undefined {
    return sparkAnswerError(body);
  }

  parseResponse(body: unknown): AnswerReading {
    return readSparkAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromSpark(body as JsonObject, target.upstreamModel);
  }

  override parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return readSparkAnswer(JSON.parse(data));
    } catch {
      return undefined;
    }
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const frames = new SparkChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((frame) => frames.translate(frame));
  }

  knownModels(): readonly string[] {
    return SPARK_KNOWN_MODELS;
  }
}
