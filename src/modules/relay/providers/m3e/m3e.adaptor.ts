import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, KnownModels, NativeAdaptor, UpstreamTarget } from '../adaptor';
import { ConvertedBearerAdaptor } from '../converted-bearer';
import { embeddingTexts } from '../embedding-input';
import { readUsage } from '../../wire/openai-usage';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { tokenCount, type UsageReport } from '../../wire/usage';

/** MokaAI's open M3E models, as operators name them on their servers. */
const M3E_MODELS: readonly string[] = ['m3e-small', 'm3e-base', 'm3e-large'];

/**
 * MokaAI M3E (channel type 44). M3E is an open model with no hosted API of MokaAI's: operators
 * serve it themselves behind OpenAI's `POST /v1/embeddings` (the m3e-large-api server that
 * One API and FastGPT document), which differs from OpenAI's in three ways this adaptor
 * covers: `input` must be a list, `encoding_format` is ignored (vectors always come as
 * floats, so a client asking for base64, as OpenAI's SDKs do by default, gets them encoded
 * by the relay), and `usage.prompt_tokens` counts whitespace-separated words while
 * `total_tokens` is the tokenizer's count, which is what is billed.
 */
@Injectable()
export class M3eAdaptor extends ConvertedBearerAdaptor implements NativeAdaptor, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.MOKAAI];
  readonly format = 'm3e';
  readonly streamUsageMarker = /"usage"/;

  buildUrl(target: UpstreamTarget): URL | undefined {
    return target.endpoint === 'embeddings' ? new URL(`${baseUrl(target.channel)}/v1/embeddings`) : undefined;
  }

  /** Only what the servers read: the model and the texts as a list (a refused input rejects). */
  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return { model: target.upstreamModel, input: embeddingTexts(body.input) };
  }

  parseResponse(body: unknown): AnswerReading {
    return { usage: m3eUsage(body), text: '' };
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    const answer = body as JsonObject;
    const data = Array.isArray(answer.data) ? (answer.data as JsonObject[]) : [];
    const usage = m3eUsage(answer);
    return {
      object: 'list',
      model: target.upstreamModel,
      data: data.map((entry, index) => ({ object: 'embedding', index: typeof entry.index === 'number' ? entry.index : index, embedding: entry.embedding })),
      ...(usage ? { usage: { prompt_tokens: usage.promptTokens, total_tokens: usage.promptTokens } } : {}),
    };
  }

  /** M3E servers do not stream. */
  createStreamDecoder(): StreamDecoder {
    return new SseJsonDecoder(() => []);
  }

  knownModels(): readonly string[] {
    return M3E_MODELS;
  }
}

/** The tokens an M3E answer bills: `total_tokens` when given (see the class), else OpenAI's reading. */
function m3eUsage(body: unknown): UsageReport | undefined {
  const usage = (body as { usage?: { total_tokens?: unknown } } | null)?.usage;
  const total = tokenCount(usage?.total_tokens);
  return total > 0 ? { promptTokens: total, completionTokens: 0 } : readUsage(usage);
}

/** The server's address; a pasted `/v1` (new-api's and One API's base URLs end so) is dropped, since the path adds it. */
function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v1$/, '');
}
