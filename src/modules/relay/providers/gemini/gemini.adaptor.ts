import { Injectable } from '@nestjs/common';
import { defaultBaseUrl, CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { JsonObject } from '../../wire/wire-format';
import type { ModelListing, NativeAdaptor, StreamReframing, UpstreamTarget } from '../adaptor';
import { ImageFetcherService } from '../image-fetcher.service';
import { GeminiAnswers } from './gemini-answers';
import { geminiEmbeddingsFromOpenAI, geminiRequestFromOpenAI, openAIEmbeddingsFromGemini } from './gemini-content';
import { GeminiSettings } from './gemini-settings';

/**
 * Google's Gemini API (channel type 24): generateContent, streamGenerateContent (SSE) and
 * batchEmbedContents. The key goes in the x-goog-api-key header, never in the URL, so no
 * URL that reaches a log or an error carries it. Answers are read by GeminiAnswers; an upstream
 * that ignores alt=sse answers a stream as a JSON array, Google's other framing, which it re-frames.
 */
@Injectable()
export class GeminiAdaptor extends GeminiAnswers implements NativeAdaptor, ModelListing, StreamReframing {
  readonly channelTypes = [CHANNEL_TYPE.GEMINI];
  readonly format = 'gemini';

  constructor(
    private readonly settings: GeminiSettings,
    private readonly images: ImageFetcherService,
  ) {
    super();
  }

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

  override toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    if (target.endpoint === 'embeddings') return openAIEmbeddingsFromGemini(body as JsonObject, target.upstreamModel);
    return super.toOpenAIResponse(body, target);
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
