import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config';
import type { UpstreamAnswer } from '../../../outbound/upstream-answer';
import { CHANNEL_TYPE } from '../../../channels/channel-types';
import { RelayError } from '../../relay-error';
import { UpstreamClientService, type UpstreamCall } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, NativeAdaptor, OwnTransport, UpstreamTarget } from '../adaptor';
import { AppChatAdaptor } from '../app-chat.adaptor';
import type { UsageMeter } from '../../wire/usage';
import { CollectedAnswer } from './collected-answer';
import { collectCozeStream, collectedAnswerText, cozeAnswerError, cozeRequestFromOpenAI, CozeStreamDecoder, cozeUsage, openAIResponseFromCoze, type CollectedCozeChat } from './coze-wire';

/**
 * Coze (channel type 49): a bot's v3 chat API (`POST {base}/v3/chat`), keyed by a personal
 * access token as a bearer token. The model name is the bot id (as new-api reads it), so a
 * channel maps each model name its clients use to a bot id with model_mapping.
 *
 * Coze's non-streaming mode answers only a chat id, to be polled until the chat completes and
 * its messages listed: three or more calls, a poll interval, and no answer until the end. The
 * gateway streams instead (OwnTransport), always: a streaming client gets the events translated
 * as they come; for a non-streaming one the stream is collected into one answer, which arrives
 * as soon as the chat ends. Errors come as `{code, msg}`, in a 200 answer or the stream.
 */
@Injectable()
export class CozeAdaptor extends AppChatAdaptor implements NativeAdaptor, AnswerErrors, OwnTransport {
  readonly channelTypes = [CHANNEL_TYPE.COZE];
  readonly format = 'coze';
  readonly streamUsageMarker = /"usage"/;
  protected readonly chatPath = '/v3/chat';

  constructor(
    private readonly upstream: UpstreamClientService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return cozeRequestFromOpenAI(body, target.upstreamModel);
  }

  /** The stream as it comes for a streaming client; collected into one JSON answer for the others. */
  async call(target: UpstreamTarget, request: UpstreamCall): Promise<UpstreamAnswer> {
    const answer = await this.upstream.relay(request);
    if (target.stream || answer.statusCode >= 300 || !(answer.header('content-type') ?? '').includes('event-stream')) return answer;
    const bytes = await answer.collect(this.config.relay.maxResponseBodyBytes);
    if (!bytes) throw new RelayError('response_too_large', 'The upstream answer is larger than MAX_RESPONSE_BODY_MB', 502);
    return new CollectedAnswer(answer.statusCode, collectCozeStream(bytes));
  }

  answerError(body: unknown): AnswerError | undefined {
    return cozeAnswerError(body);
  }

  parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    const collected = body as CollectedCozeChat;
    const { content, reasoning } = collectedAnswerText(collected);
    return { usage: cozeUsage(collected.data), text: content + reasoning };
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromCoze(body as CollectedCozeChat, target.upstreamModel);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new CozeStreamDecoder(target.upstreamModel, usage);
  }
}
