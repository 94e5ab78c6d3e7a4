import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, NativeAdaptor, UpstreamTarget } from '../adaptor';
import { AppChatAdaptor } from '../app-chat.adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import { DifyChunkTranslator, difyAnswerError, difyAnswerText, difyRequestFromOpenAI, difyUsage, openAIResponseFromDify } from './dify-wire';

/**
 * Dify (channel type 37): an app's chat-messages API (`POST {base}/v1/chat-messages`), blocking
 * or streaming, keyed by the app's key as a bearer token. The app decides the model: answers
 * name the client's model. Usage is billed from `metadata.usage` (the blocking answer's, or
 * the `message_end` event's). Agent apps answer only streaming calls: a non-streaming client
 * gets Dify's refusal.
 */
@Injectable()
export class DifyAdaptor extends AppChatAdaptor implements NativeAdaptor, AnswerErrors {
  readonly channelTypes = [CHANNEL_TYPE.DIFY];
  readonly format = 'dify';
  readonly streamUsageMarker = /"message_end"/;
  protected readonly chatPath = '/v1/chat-messages';

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

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new DifyChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }
}
