import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, defaultBaseUrl, type ChannelTypeRow } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { RelayEndpoint } from '../../relay-endpoints';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, ClientFormatPassThrough, ErrorAnswers, ModelListing, NativeAdaptor, RawUsageReader, UpstreamTarget } from '../adaptor';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter, UsageReport } from '../../wire/usage';
import {
  dashScopeBodyError,
  DashScopeChunkTranslator,
  dashScopeEmbeddingsFromOpenAI,
  dashScopeRequestFromOpenAI,
  isDashScopeAnswer,
  openAIEmbeddingsFromDashScope,
  openAIResponseFromDashScope,
  readDashScopeAnswer,
} from './dashscope';

/** DashScope's native endpoints, by the relay endpoint they serve. */
const NATIVE_PATHS: Partial<Record<RelayEndpoint, string>> = {
  chat: '/api/v1/services/aigc/text-generation/generation',
  embeddings: '/api/v1/services/embeddings/text-embedding/text-embedding',
};

/** A channel whose base URL names DashScope's OpenAI-compatible mode (`…/compatible-mode/v1`) is relayed OpenAI-style. */
export function usesCompatibleMode(channel: RelayChannel): boolean {
  return channel.baseUrl.includes('/compatible-mode');
}

/**
 * Alibaba's Qwen through DashScope (channel type 17), in one of two modes chosen by the
 * channel's base URL. By default the native API: text-generation (`result_format: message`,
 * SSE with `X-DashScope-SSE: enable` and incremental output) and text-embedding, every client
 * converting through OpenAI's shape. A base URL naming `compatible-mode` relays OpenAI-style
 * to `…/compatible-mode/v1/chat/completions` and `/embeddings`: OpenAI clients' bytes pass
 * through (clientFormatFor), as on any OpenAI-compatible channel. Both take the key as a
 * bearer token and name errors `{code, message}` (InvalidApiKey, Arrearage), read by code.
 */
@Injectable()
export class AliAdaptor implements NativeAdaptor, ClientFormatPassThrough, AnswerErrors, ErrorAnswers, ModelListing, RawUsageReader {
  readonly channelTypes = [CHANNEL_TYPE.ALI];
  readonly format = 'dashscope';
  /** The compatible mode: OpenAI's adaptor on the channel's `…/compatible-mode/v1`, asking streams for their usage. */
  private readonly compatible = new OpenAICompatibleAdaptor({ ...(channelTypeRow(CHANNEL_TYPE.ALI) as ChannelTypeRow), streamUsage: true });
  /** Only passed-through streams are read event by event, and only the compatible mode's pass through. */
  readonly streamUsageMarker = this.compatible.streamUsageMarker;

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (usesCompatibleMode(target.channel)) return this.compatible.buildUrl(target);
    const path = NATIVE_PATHS[target.endpoint];
    return path ? new URL(`${nativeBaseUrl(target.channel)}${path}`) : undefined;
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
    if (target.stream && !usesCompatibleMode(target.channel)) {
      headers['x-dashscope-sse'] = 'enable';
      headers.accept = 'text/event-stream';
    }
    return headers;
  }

  /** In the compatible mode, OpenAI clients' bodies go as they are. */
  clientFormatFor(target: UpstreamTarget): WireFormat | undefined {
    return usesCompatibleMode(target.channel) ? 'openai' : undefined;
  }

  // Bodies in the client's own format reach only the compatible mode (clientFormatFor): OpenAI's handling.
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    return this.compatible.fitRequest(target, body);
  }

  keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean {
    return this.compatible.keepsClientBody(target, body);
  }

  addedMembers(target: UpstreamTarget, body: JsonObject): string | undefined {
    return this.compatible.addedMembers(target, body);
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (usesCompatibleMode(target.channel)) return this.compatible.convertRequest(target, body);
    if (target.endpoint === 'embeddings') return Promise.resolve(dashScopeEmbeddingsFromOpenAI(body, target.upstreamModel));
    return Promise.resolve(dashScopeRequestFromOpenAI(body, target.upstreamModel, target.stream));
  }

  parseResponse(body: unknown): AnswerReading {
    return isDashScopeAnswer(body) ? readDashScopeAnswer(body) : this.compatible.parseResponse(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    if (usesCompatibleMode(target.channel)) return this.compatible.toOpenAIResponse(body);
    if (target.endpoint === 'embeddings') return openAIEmbeddingsFromDashScope(body as JsonObject, target.upstreamModel);
    return openAIResponseFromDashScope(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    return this.compatible.parseStreamEvent(data);
  }

  readUsageFromBytes(bytes: Buffer): UsageReport | undefined {
    return this.compatible.readUsageFromBytes(bytes);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    if (usesCompatibleMode(target.channel)) return this.compatible.createStreamDecoder(target, usage);
    const chunks = new DashScopeChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }

  answerError(body: unknown): AnswerError | undefined {
    return dashScopeBodyError(body, 200);
  }

  errorAnswer(status: number, body: unknown): AnswerError | undefined {
    return dashScopeBodyError(body, status);
  }

  /** Both modes list models through the compatible mode's /models, which takes the same key. */
  modelsUrl(channel: RelayChannel): URL {
    return usesCompatibleMode(channel) ? this.compatible.modelsUrl(channel) : new URL(`${nativeBaseUrl(channel)}/compatible-mode/v1/models`);
  }

  parseModelList(body: unknown): string[] {
    return this.compatible.parseModelList(body);
  }
}

/** The channel's base URL without a pasted API path: the adaptor adds `/api/v1/services/…` itself. */
function nativeBaseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}
