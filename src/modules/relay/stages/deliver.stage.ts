import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import type { UpstreamAnswer } from '../../outbound/upstream-answer';
import { isBelievableUsage } from '../../billing/billing-formula';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { OptionsService } from '../../options/options.service';
import type { ClientStreamOptions } from '../formats/inbound-format';
import { EventStreamWriter, JsonArrayStreamWriter, type ClientResponse, type ClientStreamWriter } from '../wire/client-stream-writers';
import { responsesToolOptions } from '../formats/responses.format';
import type { JsonObject } from '../wire/wire-format';
import type { ProviderAdaptor, UpstreamTarget } from '../providers/adaptor';
import { answerErrorText, canReadRawUsage, canReframeStreams, readsAnswerErrors, takesClientFormat } from '../providers/adaptor';
import { fullUsage, UsageMeter, type Usage } from '../wire/usage';
import { answeredSeconds } from '../media-charge';
import { RelayError, REQUEST_ID_HEADER } from '../relay-error';
import { readableSource, relayEventStream, type ChunkSource, type StreamOutcome } from '../sse-passthrough';
import { relayTranslatedStream } from '../stream-translation';
import { transportError } from '../upstream-client.service';
import type { Delivery, PreparedRequest } from './relay-request';

/**
 * Once a stream has sent its first byte the attempt counts as delivered, so it is never retried.
 * An error the upstream reported inside a 2xx answer comes back as `refused`, for the dispatch
 * stage to treat like an error status (failover, auto-disable).
 */
export type AttemptResult = { ok: true; delivery: Delivery } | { ok: false; error: RelayError } | { ok: false; refused: UpstreamRefusal };

/** An upstream error as its status and an OpenAI-shaped error body. */
export interface UpstreamRefusal {
  status: number;
  text: string;
}

/** A complete answer: its usage, its generated text (read lazily) and the client's bytes. */
interface AnswerBytes {
  usage?: Usage;
  text: () => string;
  bytes: Buffer;
}

/**
 * The third stage: a successful upstream answer reaches the client. When the client and the
 * channel speak the same format the bytes pass through untouched (usage read on the way);
 * otherwise the answer, or each stream event, converts through OpenAI's shape.
 */
@Injectable()
export class RelayDeliverStage {
  constructor(
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: GatewayMetrics,
  ) {}

  async deliver(request: PreparedRequest, adaptor: ProviderAdaptor, target: UpstreamTarget, answer: UpstreamAnswer, response: ClientResponse): Promise<AttemptResult> {
    const headersAt = performance.now();
    const passThrough = takesClientFormat(adaptor, target, request.route.inbound.wire);
    const upstreamType = answer.header('content-type') ?? '';
    // A stream in the provider's own framing (AWS event-stream, Gemini's JSON array) continues as SSE.
    const ownFraming = request.stream && canReframeStreams(adaptor) && adaptor.framesOwnStream(upstreamType);
    if (ownFraming || upstreamType.includes('event-stream')) {
      const body = ownFraming ? readableSource(adaptor.reframeStream(answer.body)) : answer;
      const writer = clientStreamWriter(request, response);
      const queueLength = this.options.get('StreamCacheQueueLength');
      const metered = this.metrics.enabled;
      if (metered) this.metrics.streamOpened();
      let outcome: StreamOutcome;
      try {
        outcome = passThrough
          ? await relayEventStream(body, response, adaptor, request.clientGone, dropsUsageChunks(request), writer, queueLength)
          : await this.translateStream(request, adaptor, target, body, response, writer, queueLength);
      } finally {
        if (metered) this.metrics.streamClosed();
      }
      if (outcome.firstChunkAt === undefined) {
        if (request.clientGone()) return failed(clientGoneError());
        if (typeof outcome.earlyError?.status === 'number') return refusedWith(outcome.earlyError);
        return failed(new RelayError('channel:bad_response', 'The upstream stream ended before sending anything', 502));
      }
      return delivered(target, { usage: outcome.usage, text: outcome.deliveredText, firstByteAt: outcome.firstChunkAt });
    }

    let bytes: Buffer | undefined;
    try {
      bytes = await readCapped(answer, this.config.relay.maxResponseBodyBytes);
    } catch (error) {
      if (request.clientGone()) return failed(clientGoneError());
      return failed(transportError(error));
    }
    if (!bytes) {
      // Another channel would most likely answer as much again: no failover, the hold is refunded.
      const megabytes = Math.floor(this.config.relay.maxResponseBodyBytes / 1024 / 1024);
      return failed(new RelayError('response_too_large', `The upstream answer is larger than ${megabytes} MB (MAX_RESPONSE_BODY_MB)`, 502));
    }
    let reading: AnswerBytes = { text: () => '', bytes };
    if (upstreamType.includes('json')) {
      const read = passThrough ? readJsonAnswer(adaptor, bytes) : translateJsonAnswer(request, adaptor, target, bytes);
      if (!read) return failed(new RelayError('channel:bad_response', 'The upstream answered with invalid JSON, or JSON not shaped as its format', 502));
      if ('ok' in read) return read;
      reading = read;
    } else if (upstreamType.startsWith('text/')) {
      const text = bytes.toString('utf8');
      reading = { text: () => text, bytes };
    }
    if (request.clientGone()) return failed(clientGoneError());
    const contentType = passThrough ? upstreamType || 'application/json' : 'application/json';
    response.writeHead(answer.statusCode, { 'content-type': contentType, 'content-length': reading.bytes.length, [REQUEST_ID_HEADER]: request.requestId });
    response.end(reading.bytes);
    // A transcription billed per second: the answer's duration (verbose_json, or usage.seconds) replaces the upload's estimate.
    const mediaSeconds = request.media?.basis === 'upload' && upstreamType.includes('json') ? answeredSeconds(parseJson(bytes)) : undefined;
    return delivered(target, { usage: reading.usage, text: reading.text, firstByteAt: headersAt, mediaSeconds, answer: reading.bytes, answerType: contentType });
  }

  private translateStream(request: PreparedRequest, adaptor: ProviderAdaptor, target: UpstreamTarget, body: ChunkSource, response: ClientResponse, writer: ClientStreamWriter, queueLength: number): Promise<StreamOutcome> {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target, usage);
    const encoder = request.route.inbound.createStreamEncoder(clientOptions(request));
    return relayTranslatedStream(body, response, decoder, encoder, usage, request.clientGone, writer, queueLength);
  }
}

export function clientGoneError(): RelayError {
  return new RelayError('invalid_request', 'The client closed the connection', 499);
}

function failed(error: RelayError): AttemptResult {
  return { ok: false, error };
}

/** An error reported inside a 2xx answer (`AnswerErrors`, or a stream's early error chunk carrying its status). */
function refusedWith(error: { status?: unknown; message?: unknown; code?: unknown }): AttemptResult {
  const answerError = { status: typeof error.status === 'number' ? error.status : 502, message: typeof error.message === 'string' ? error.message : '', code: typeof error.code === 'string' ? error.code : undefined };
  return { ok: false, refused: { status: answerError.status, text: answerErrorText(answerError) } };
}

function delivered(target: UpstreamTarget, outcome: Omit<Delivery, 'channel' | 'keyIndex' | 'upstreamModel'>): AttemptResult {
  return { ok: true, delivery: { channel: target.channel, keyIndex: target.keyIndex ?? 0, upstreamModel: target.upstreamModel, ...outcome } };
}

/** The client's stream framing: SSE, or the JSON array a Gemini client gets when it did not ask for alt=sse. */
function clientStreamWriter(request: PreparedRequest, response: ClientResponse): ClientStreamWriter {
  return request.route.jsonArrayStream ? new JsonArrayStreamWriter(response, request.requestId) : new EventStreamWriter(response, request.requestId);
}

/** OpenAI clients that did not ask for a usage chunk never get one (the gateway may have asked for it to bill). */
function dropsUsageChunks(request: PreparedRequest): boolean {
  const endpoint = request.route.spec.endpoint;
  return request.route.inbound.wire === 'openai' && (endpoint === 'chat' || endpoint === 'completions') && !clientOptions(request).includeUsage;
}

function clientOptions(request: PreparedRequest): ClientStreamOptions {
  const streamOptions = request.body?.stream_options as JsonObject | undefined;
  return {
    model: request.model,
    includeUsage: streamOptions?.include_usage === true,
    base64Embeddings: request.body?.encoding_format === 'base64',
    ...(request.route.inbound.wire === 'responses' ? responsesToolOptions(request.body) : {}),
  };
}

/**
 * A complete answer passed through: its usage and text, or undefined when it is not JSON.
 * It is parsed whole only if its usage cannot be read straight from the bytes.
 */
function readJsonAnswer(adaptor: ProviderAdaptor, bytes: Buffer): AnswerBytes | undefined {
  if (canReadRawUsage(adaptor)) {
    const usage = fullUsage(adaptor.readUsageFromBytes(bytes));
    if (usage && isBelievableUsage(usage)) return { usage, text: () => adaptor.parseResponse(parseJson(bytes)).text, bytes };
  }
  const parsed = parseJson(bytes);
  if (parsed === undefined) return undefined;
  const reading = adaptor.parseResponse(parsed);
  return { usage: fullUsage(reading.usage), text: () => reading.text, bytes };
}

/** A complete answer in the channel's format, converted into the client's through OpenAI's shape. */
function translateJsonAnswer(request: PreparedRequest, adaptor: ProviderAdaptor, target: UpstreamTarget, bytes: Buffer): AnswerBytes | AttemptResult | undefined {
  const parsed = parseJson(bytes);
  if (parsed === undefined || typeof parsed !== 'object' || parsed === null) return undefined;
  const answerError = readsAnswerErrors(adaptor) ? adaptor.answerError(parsed) : undefined;
  if (answerError) return refusedWith(answerError);
  try {
    const reading = adaptor.parseResponse(parsed);
    const answer = adaptor.toOpenAIResponse(parsed, target);
    return { usage: fullUsage(reading.usage), text: () => reading.text, bytes: Buffer.from(JSON.stringify(request.route.inbound.fromOpenAIResponse(answer, clientOptions(request)))) };
  } catch {
    // JSON of another shape than the provider's (a candidate of null, parts that are no list): the channel's fault, as invalid JSON is.
    return undefined;
  }
}

/**
 * The whole answer body, or undefined once it passes `limit` bytes (the rest is not read: a
 * huge answer must not grow the gateway's memory by its size).
 */
function readCapped(answer: UpstreamAnswer, limit: number): Promise<Buffer | undefined> {
  const declared = Number(answer.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    answer.destroy();
    return Promise.resolve(undefined);
  }
  return answer.collect(limit);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
