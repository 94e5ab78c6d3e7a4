import type { RelayChannel } from '../caches/relay-channel';
import type { RelayEndpoint } from '../relay-endpoints';

export type JsonObject = Record<string, unknown>;

/** What one attempt sends upstream through one channel. */
export interface UpstreamTarget {
  channel: RelayChannel;
  /** The channel key chosen for this attempt (decrypted). */
  key: string;
  endpoint: RelayEndpoint;
  /** The model name after the channel's model_mapping. */
  upstreamModel: string;
  stream: boolean;
}

/** Token counts as the upstream reported them (or as we counted them). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (billed at the cache ratio). */
  cachedTokens: number;
}

/** What the relay needs to know from an answer: the usage when reported, and the generated text for local counting. */
export interface AnswerReading {
  usage?: Usage;
  text: string;
}

/**
 * One upstream provider. Small on purpose: the relay owns transport, retries, streaming and
 * billing; an adaptor only knows the provider's URLs, headers and body shapes.
 */
export interface ProviderAdaptor {
  /** The URL of an endpoint on this channel, or undefined when the provider does not offer it. */
  buildUrl(target: UpstreamTarget): URL | undefined;
  /** Authentication and provider headers. The key goes only to buildUrl's host. */
  buildHeaders(target: UpstreamTarget): Record<string, string>;
  /** The outgoing JSON body for a client body in OpenAI's format (already a private copy). */
  convertRequest(target: UpstreamTarget, body: JsonObject): JsonObject;
  /**
   * True when convertRequest would send the client's body as it is (with `model` set to the
   * upstream model, which the relay checks): then the client's bytes go out untouched, and a
   * long conversation is not serialised again. False whenever unsure.
   */
  keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean;
  /** Reads a complete (non-streamed) JSON answer. */
  parseResponse(body: unknown): AnswerReading;
  /** Reads the data of one server-sent event; undefined for events that carry nothing we count. */
  parseStreamEvent(data: string): AnswerReading | undefined;
  /** Matches event data that may carry usage, so the stream path only parses those events as it goes. */
  readonly streamUsageMarker: RegExp;
}

/** Optional: the provider can list its models (GET /api/channel/fetch_models). */
export interface ModelListing {
  modelsUrl(channel: RelayChannel): URL;
  parseModelList(body: unknown): string[];
}

/** Optional, for answers passed through as they are: their usage, read without parsing the whole answer. */
export interface RawUsageReader {
  /** Undefined when the usage cannot be read this way (the relay then parses the answer). */
  readUsageFromBytes(bytes: Buffer): Usage | undefined;
}

/** Optional, for native providers: turns their answer into OpenAI's wire format for the client. */
export interface ResponseTranslator {
  translateResponse(body: unknown, target: UpstreamTarget): JsonObject;
}

/** Optional, for native providers: turns one of their stream events into OpenAI chunk data lines. */
export interface StreamTranslator {
  translateStreamEvent(data: string, target: UpstreamTarget): string[];
}

export function canListModels(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & ModelListing {
  return typeof (adaptor as Partial<ModelListing>).modelsUrl === 'function';
}

export function canReadRawUsage(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & RawUsageReader {
  return typeof (adaptor as Partial<RawUsageReader>).readUsageFromBytes === 'function';
}

export function canTranslateResponse(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & ResponseTranslator {
  return typeof (adaptor as Partial<ResponseTranslator>).translateResponse === 'function';
}

export function canTranslateStream(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & StreamTranslator {
  return typeof (adaptor as Partial<StreamTranslator>).translateStreamEvent === 'function';
}
