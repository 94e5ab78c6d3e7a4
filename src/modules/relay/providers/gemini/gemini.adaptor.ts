import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { defaultBaseUrl, CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { AnswerReading, JsonObject, ModelListing, NativeAdaptor, ProviderAdaptor, StreamDecoder, StreamReframing, UpstreamTarget } from '../adaptor';
import { ImageFetcherService } from '../image-fetcher.service';
import { SseJsonDecoder } from '../sse-decoder';
import { JsonArrayFramer, reframedStream } from '../stream-framing';
import type { UsageMeter } from '../usage';
import { GeminiChunkTranslator, geminiEmbeddingsFromOpenAI, geminiRequestFromOpenAI, openAIEmbeddingsFromGemini, openAIResponseFromGemini, readGeminiAnswer } from './gemini-content';
import { GeminiSettings } from './gemini-settings';


/**
 * Google's Gemini API (channel type 24): generateContent, streamGenerateContent (SSE) and
 * batchEmbedContents. The key goes in the x-goog-api-key header, never in the URL, so no
 * URL that reaches a log or an error carries it.
 */
@Injectable()
export class GeminiAdaptor implements NativeAdaptor, ModelListing, StreamReframing {
  readonly channelTypes = [CHANNEL_TYPE.GEMINI];
  readonly format = 'gemini';
  readonly streamUsageMarker = /"usageMetadata"/;

  constructor(
    private readonly settings: GeminiSettings,
    private readonly images: ImageFetcherService,
  ) {}

  buildUrl(target: UpstreamTarget): URL | undefined {
    const models = `${baseUrl(target.channel)}/${this.settings.apiVersion(target.upstreamModel)}/models/${encodeURIComponent(target.upstreamModel)}`;
    if (target.endpoint === 'embeddings') return new URL(`${models}:batchEmbedContents`);
    if (target.endpoint !== 'chat') return undefined;
    return new URL(target.stream ? `${models}:streamGenerateContent?alt=sse` : `${models}:generateContent`);
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { 'x-goog-api-key': target.key };
  }

  /** A Gemini body from a Gemini client: the model is in the URL, so nothing changes. */
  fitRequest(_target: UpstreamTarget, body: JsonObject): JsonObject {
    return body;
  }

  keepsClientBody(): boolean {
    return true;
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (target.endpoint === 'embeddings') return Promise.resolve(geminiEmbeddingsFromOpenAI(body, target.upstreamModel));
    return geminiRequestFromOpenAI(body, { safetySettings: this.settings.safetySettings() }, (url) => this.images.fetchInline(url));
  }

  parseResponse(body: unknown): AnswerReading {
    return readGeminiAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    if (target.endpoint === 'embeddings') return openAIEmbeddingsFromGemini(body as JsonObject, target.upstreamModel);
    return openAIResponseFromGemini(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return this.parseResponse(JSON.parse(data));
    } catch {
      return undefined;
    }
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new GeminiChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((answer) => chunks.translate(answer));
  }

  /** An upstream that ignores alt=sse answers a stream as a JSON array, Google's other framing. */
  framesOwnStream(contentType: string): boolean {
    return contentType.includes('json');
  }

  reframeStream(body: Readable): Readable {
    return reframedStream(body, new JsonArrayFramer());
  }

  modelsUrl(channel: RelayChannel): URL {
    return new URL(`${baseUrl(channel)}/v1beta/models?pageSize=1000`);
  }

  parseModelList(body: unknown): string[] {
    const models = (body as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) return [];
    return models
      .map((entry) => (entry as { name?: unknown }).name)
      .filter((name): name is string => typeof name === 'string')
      .map((name) => name.replace(/^models\//, ''));
  }
}

function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/(v1|v1beta)$/, '');
}
