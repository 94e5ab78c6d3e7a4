import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { AnswerError, AnswerErrors, AnswerReading, JsonObject, NativeAdaptor, StreamDecoder, UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../sse-decoder';
import type { UsageMeter } from '../usage';
import { DifyChunkTranslator, difyAnswerError, difyAnswerText, difyRequestFromOpenAI, difyUsage, openAIResponseFromDify } from './dify-wire';

/**
 * Dify (channel type 37): an app's chat-messages API (`POST {base}/v1/chat-messages`), blocking
 * or streaming, keyed by the app's key as a bearer token. The app decides the model: the
 * request's model name only routes to the channel, and answers name the client's model.
 * Usage is billed from `metadata.usage` (the blocking answer's, or the `message_end` event's).
 * Agent apps answer only streaming calls: a non-streaming client gets Dify's refusal.
 */
@Injectable()
export class DifyAdaptor implements NativeAdaptor, AnswerErrors {
  readonly channelTypes = [CHANNEL_TYPE.DIFY];
  readonly format = 'dify';
  readonly streamUsageMarker = /"message_end"/;

  buildUrl(target: UpstreamTarget): URL | undefined {
    return target.endpoint === 'chat' ? new URL(`${baseUrl(target.channel)}/v1/chat-messages`) : undefined;
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { authorization: `Bearer ${target.key}` };
  }

  /** No client speaks Dify's format: bodies always convert. */
  fitRequest(_target: UpstreamTarget, body: JsonObject): JsonObject {
    return body;
  }

  keepsClientBody(): boolean {
    return false;
  }

  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return difyRequestFromOpenAI(body, target.stream);
  }

  answerError(body: unknown): AnswerError | undefined {
    return difyAnswerError(body);
  }

  parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    return { usage: difyUsage(body as JsonObject), text: difyAnswerText(body as JsonObject) };
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromDify(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return this.parseResponse(JSON.parse(data));
    } catch {
      return undefined;
    }
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new DifyChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }
}

/** The channel's base URL without the `/v1` a pasted API URL ends with: the path adds it. */
function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v1$/, '');
}
