import type { Readable } from 'node:stream';
import type { UpstreamAnswer } from '../../outbound/upstream-answer';
import type { UpstreamCall } from '../upstream-client.service';
import type { RelayChannel } from '../caches/relay-channel';
import type { RelayEndpoint } from '../relay-endpoints';
import type { StreamDecoder } from '../wire/stream-decoder';
import type { UsageMeter, UsageReport } from '../wire/usage';
import type { JsonObject, WireFormat } from '../wire/wire-format';

/** What one attempt sends upstream through one channel. */
export interface UpstreamTarget {
  channel: RelayChannel;
  /** The channel key chosen for this attempt (decrypted). */
  key: string;
  /** Its index in the channel's keys, for the log row (the relay's attempts set it). */
  keyIndex?: number;
  endpoint: RelayEndpoint;
  /** The model name after the channel's model_mapping. */
  upstreamModel: string;
  stream: boolean;
  /** The client's request headers (a native client's version and beta headers pass through). */
  clientHeaders?: Readonly<Record<string, string | string[] | undefined>>;
}

/** The request of one attempt once its body is final: what headers may sign. */
export interface OutgoingCall {
  url: URL;
  body: string | Buffer;
}

/** What the relay needs to know from an answer: the usage when reported, and the generated text for local counting. */
export interface AnswerReading {
  usage?: UsageReport;
  text: string;
  /** The stream event carries usage and nothing else (OpenAI's include_usage chunk, with empty choices). */
  usageOnly?: boolean;
}

/**
 * One upstream provider. The relay owns transport, retries, streaming and billing; an
 * adaptor knows the provider's URLs, authentication, body shapes and stream framing.
 */
export interface ProviderAdaptor {
  /** The wire format the provider speaks. */
  readonly format: WireFormat;
  /** The URL of an endpoint on this channel, or undefined when the provider does not offer it. */
  buildUrl(target: UpstreamTarget): URL | undefined;
  /**
   * Authentication and provider headers for one attempt, prepared once the body is final so
   * they may sign it or fetch an access token. The key goes only to buildUrl's host.
   */
  buildHeaders(target: UpstreamTarget, call: OutgoingCall): Record<string, string> | Promise<Record<string, string>>;
  /** A client body already in this provider's format (a private copy): the upstream model and provider defaults. */
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject;
  /**
   * True when fitRequest would send the client's body as it is (with `model` set to the
   * upstream model, which the relay checks): then the client's bytes go out untouched, and a
   * long conversation is not serialised again. False whenever unsure.
   */
  keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean;
  /**
   * When fitRequest would only add fields the client's body lacks, those fields as JSON
   * members (`"a":1,"b":2`): the relay appends them to the client's bytes instead of
   * serialising the whole body again. Undefined otherwise, or whenever unsure.
   */
  addedMembers?(target: UpstreamTarget, body: JsonObject): string | undefined;
  /**
   * A body in OpenAI's format (the internal shape; a private copy) converted into the
   * provider's. Async: a conversion may fetch images to inline them.
   */
  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject>;
  /** Reads a complete answer in the provider's format. */
  parseResponse(body: unknown): AnswerReading;
  /** The provider's complete answer as OpenAI's (the internal shape). */
  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject;
  /** Reads the data of one server-sent event passed through; undefined for events that carry nothing we count. */
  parseStreamEvent(data: string): AnswerReading | undefined;
  /** Matches event data that may carry usage, so the pass-through path only parses those events as it goes. */
  readonly streamUsageMarker: RegExp;
  /** A fresh decoder of the provider's stream into OpenAI chunks, for one request. */
  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder;
}

/**
 * A provider with an adaptor of its own (listed in `native.ts`): it names the catalogue types
 * it serves, whose rows say `servedBy: 'native'`.
 */
export interface NativeAdaptor extends ProviderAdaptor {
  readonly channelTypes: readonly number[];
}

/**
 * An error an upstream reports inside a successful (2xx) answer, read by `AnswerErrors`, in the
 * terms the relay's rules read: a bad key is status 401 (auto-disable), an exhausted account
 * code `insufficient_quota` (auto-disable), a rate limit 429 and a provider fault 5xx (failover);
 * anything else is the request's fault (400) and reaches the client.
 */
export interface AnswerError {
  status: number;
  message: string;
  /** The error's code as the relay's rules know it (`insufficient_quota`), or the provider's own. */
  code?: string;
}

/**
 * Optional: the provider answers some errors with status 200 and an error body (Baidu's
 * `error_code`, MiniMax's `base_resp`, Tencent's `Response.Error`). The relay asks before
 * delivering a complete answer, and for a stream before its first event goes out, so such an
 * error fails the attempt like a 4xx/5xx would (failover, auto-disable, the client's error shape).
 */
export interface AnswerErrors {
  /** The error a complete answer (or one stream event's data) reports, or undefined when it is no error. */
  answerError(body: unknown): AnswerError | undefined;
}

export function readsAnswerErrors(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & AnswerErrors {
  return typeof (adaptor as Partial<AnswerErrors>).answerError === 'function';
}

/**
 * Optional: the provider's error answers (status 4xx/5xx) name what is wrong in a shape or code
 * of its own (Zhipu's business codes, DashScope's `Arrearage` under a 400), which the relay's
 * rules would not read. The relay asks before judging an error answer, so a bad key or an
 * exhausted account disables the channel and fails over like OpenAI's own errors do.
 */
export interface ErrorAnswers {
  /** The error an error answer's body reports in the relay's terms, or undefined to read it as it came. */
  errorAnswer(status: number, body: unknown): AnswerError | undefined;
}

export function readsErrorAnswers(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & ErrorAnswers {
  return typeof (adaptor as Partial<ErrorAnswers>).errorAnswer === 'function';
}

/** An `AnswerError` as the OpenAI-shaped error body the relay's refusal rules read (auto-disable, failover, the client's message). */
export function answerErrorText(error: AnswerError): string {
  return JSON.stringify({ error: { message: error.message, code: error.code } });
}

/**
 * Optional: a provider whose call is not one HTTP request (iFlytek Spark's WebSocket,
 * Replicate's prediction followed by its stream). The adaptor makes the call itself, through
 * the gateway's guarded client (and the outbound guard's address check for other protocols),
 * and answers what an HTTP call would: a status, headers, and a body in the provider's framing.
 * The relay and the channel test use it in place of their own HTTP call.
 */
export interface OwnTransport {
  call(target: UpstreamTarget, request: UpstreamCall): Promise<UpstreamAnswer>;
}

export function hasOwnTransport(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & OwnTransport {
  return typeof (adaptor as Partial<OwnTransport>).call === 'function';
}

/** Optional: the provider can list its models (GET /api/channel/fetch_models). */
export interface ModelListing {
  modelsUrl(channel: RelayChannel): URL;
  parseModelList(body: unknown): string[];
}

/** Optional: the provider counts a request's input tokens (Anthropic's /v1/messages/count_tokens), free of charge. */
export interface TokenCounting {
  countTokensUrl(channel: RelayChannel): URL;
}

export function countsTokens(adaptor: ProviderAdaptor | undefined): adaptor is ProviderAdaptor & TokenCounting {
  return adaptor !== undefined && 'countTokensUrl' in adaptor;
}

/** Optional: the provider has no model-list API; fetch_models answers the models the gateway knows it serves. */
export interface KnownModels {
  knownModels(channel: RelayChannel): readonly string[];
}

/**
 * Optional: the provider takes a client format's bodies as they are, behind its own URLs, auth
 * and framing (Claude's Messages on Bedrock and Vertex, Gemini's on Vertex). A request in that
 * format is then fitted (`fitRequest`), not converted, and its answer passes through.
 */
export interface ClientFormatPassThrough {
  /** The client format this target takes as its own besides `format`, if any. */
  clientFormatFor(target: UpstreamTarget): WireFormat | undefined;
}

/**
 * Optional: streams that may come in a framing of the provider's own (AWS event-stream,
 * Gemini's JSON array) are re-framed as server-sent events of the same events, so that one
 * path passes them through or translates them.
 */
export interface StreamReframing {
  /** Whether an answer of this content type to a streaming request is a stream in the provider's own framing. */
  framesOwnStream(contentType: string): boolean;
  /** The upstream's body as server-sent events (errors and the end follow the body's). */
  reframeStream(body: Readable): Readable;
}

/** Optional, for answers passed through as they are: their usage, read without parsing the whole answer. */
export interface RawUsageReader {
  /** Undefined when the usage cannot be read this way (the relay then parses the answer). */
  readUsageFromBytes(bytes: Buffer): UsageReport | undefined;
}

export function canListModels(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & ModelListing {
  return typeof (adaptor as Partial<ModelListing>).modelsUrl === 'function';
}

export function hasKnownModels(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & KnownModels {
  return typeof (adaptor as Partial<KnownModels>).knownModels === 'function';
}

export function canReframeStreams(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & StreamReframing {
  return typeof (adaptor as Partial<StreamReframing>).reframeStream === 'function';
}

/**
 * Optional: the provider serves OpenAI's Responses API itself (OpenAI-compatible rows with the
 * `responses` capability, Azure), so a Responses request passes through; any other channel
 * serves it converted through Chat Completions.
 */
export interface ResponsesServing {
  servesResponses(channel: RelayChannel): boolean;
  /**
   * The target's model answers only on Responses (o1-pro, the codex models, a channel marked
   * `responses_only`): its chats convert into Responses requests, and the answers back.
   */
  answersOnlyOnResponses(target: UpstreamTarget): boolean;
}

/**
 * WebSocket endpoints a channel may offer: OpenAI's Realtime API, and Responses over WebSocket.
 * Each answers the ws(s) URL on the target's channel, or undefined when its type does not offer it.
 */
export interface SocketEndpoints {
  realtimeUrl(target: UpstreamTarget): URL | undefined;
  responsesSocketUrl(target: UpstreamTarget): URL | undefined;
}

export function socketEndpoints(adaptor: ProviderAdaptor): SocketEndpoints | undefined {
  const candidate = adaptor as ProviderAdaptor & Partial<SocketEndpoints>;
  return typeof candidate.realtimeUrl === 'function' && typeof candidate.responsesSocketUrl === 'function' ? (candidate as ProviderAdaptor & SocketEndpoints) : undefined;
}

export function servesResponses(adaptor: ProviderAdaptor, channel: RelayChannel): boolean {
  return typeof (adaptor as Partial<ResponsesServing>).servesResponses === 'function' && (adaptor as ProviderAdaptor & ResponsesServing).servesResponses(channel);
}

export function answersOnlyOnResponses(adaptor: ProviderAdaptor, target: UpstreamTarget): boolean {
  return typeof (adaptor as Partial<ResponsesServing>).answersOnlyOnResponses === 'function' && (adaptor as ProviderAdaptor & ResponsesServing).answersOnlyOnResponses(target);
}

/** Whether a request in the client's format goes to this target as it is (fitted, not converted), and its answer comes back so. */
export function takesClientFormat(adaptor: ProviderAdaptor, target: UpstreamTarget, client: WireFormat): boolean {
  if (client === 'responses') return servesResponses(adaptor, target.channel);
  if (adaptor.format === client) return client !== 'openai' || !answersOnlyOnResponses(adaptor, target);
  const passThrough = adaptor as Partial<ClientFormatPassThrough>;
  return typeof passThrough.clientFormatFor === 'function' && passThrough.clientFormatFor(target) === client;
}

/**
 * An `AnswerError` met in a stream, as the in-stream error chunk. Before any answer it fails
 * the attempt with the error's status (failover, auto-disable); later it reaches the client.
 */
export function answerErrorChunk(error: AnswerError): JsonObject {
  return { error: { message: error.message, type: error.code ?? 'upstream_error', code: error.code ?? null, status: error.status } };
}

export function canReadRawUsage(adaptor: ProviderAdaptor): adaptor is ProviderAdaptor & RawUsageReader {
  return typeof (adaptor as Partial<RawUsageReader>).readUsageFromBytes === 'function';
}
