import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { RelayEndpoint } from '../../relay-endpoints';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, ModelListing, NativeAdaptor, UpstreamTarget } from '../adaptor';
import { ConvertedBearerAdaptor } from '../converted-bearer';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import {
  CohereChunkTranslator,
  cohereChatFromOpenAI,
  cohereEmbedFromOpenAI,
  cohereRerankFromClient,
  openAIChatFromCohere,
  openAIEmbeddingsFromCohere,
  readCohereAnswer,
  rerankAnswerFromCohere,
  rerankDocumentTexts,
} from './cohere-content';

/** Cohere's v2 path of each endpoint it offers. */
const PATHS: Partial<Record<RelayEndpoint, string>> = { chat: '/v2/chat', embeddings: '/v2/embed', rerank: '/v2/rerank' };

/**
 * Cohere's v2 API (channel type 34): chat (SSE of typed events), embed and rerank, with a
 * bearer key. No client speaks Cohere's format, so every request converts. Errors are
 * `{"message": …}` with HTTP statuses: 401 is a bad key; 402 (billing limit reached) is named
 * in the catalogue row, so both disable the channel.
 */
@Injectable()
export class CohereAdaptor extends ConvertedBearerAdaptor implements NativeAdaptor, ModelListing {
  readonly channelTypes = [CHANNEL_TYPE.COHERE];
  readonly format = 'cohere';
  readonly streamUsageMarker = /"message-end"/;

  /**
   * The documents of each rerank attempt, to put back into the results (Cohere v2 answers
   * indexes only). Keyed by the attempt's own target, so nothing outlives or crosses requests.
   */
  private readonly rerankDocuments = new WeakMap<UpstreamTarget, string[]>();

  buildUrl(target: UpstreamTarget): URL | undefined {
    const path = PATHS[target.endpoint];
    return path ? new URL(`${baseUrl(target.channel)}${path}`) : undefined;
  }

  /** Async so that a refused input (token arrays to embed) rejects, as the contract's callers expect. */
  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (target.endpoint === 'embeddings') return cohereEmbedFromOpenAI(body, target.upstreamModel);
    if (target.endpoint === 'rerank') {
      if (body.return_documents !== false) this.rerankDocuments.set(target, rerankDocumentTexts(body.documents));
      return cohereRerankFromClient(body, target.upstreamModel);
    }
    return cohereChatFromOpenAI(body, target.upstreamModel);
  }

  parseResponse(body: unknown): AnswerReading {
    return readCohereAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    const answer = body as JsonObject;
    if (target.endpoint === 'embeddings') return openAIEmbeddingsFromCohere(answer, target.upstreamModel);
    if (target.endpoint === 'rerank') return rerankAnswerFromCohere(answer, this.rerankDocuments.get(target));
    return openAIChatFromCohere(answer, target.upstreamModel);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new CohereChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }

  modelsUrl(channel: RelayChannel): URL {
    return new URL(`${baseUrl(channel)}/v1/models?page_size=1000`);
  }

  parseModelList(body: unknown): string[] {
    const models = (body as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) return [];
    return models.map((model) => (model as { name?: unknown }).name).filter((name): name is string => typeof name === 'string');
  }
}

/** The channel's base URL, or Cohere's; a pasted version path (`…/v1`, `…/v2`) is dropped, since each endpoint names its own. */
function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v[12]$/, '');
}
