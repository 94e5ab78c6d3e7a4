import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import { UpstreamAnswerReader, type UpstreamAnswer } from '../../../outbound/upstream-answer';
import { ConvertingAdaptor } from '../converting-adaptor';
import type { RelayChannel } from '../../caches/relay-channel';
import { RelayError } from '../../relay-error';
import { UpstreamClientService, type UpstreamCall } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, NativeAdaptor, OwnTransport, UpstreamTarget } from '../adaptor';
import { SseDecoder, type SseEvent } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import {
  FINISHED_STATUSES,
  openAIFromPrediction,
  parseObject,
  predictionAsStream,
  predictionFromOpenAI,
  predictionTarget,
  readPrediction,
  ReplicateStreamDecoder,
  sseEvent,
} from './replicate-predictions';

/** A prediction answer is small (text, or image URLs); past this it is not read. */
const PREDICTION_LIMIT = 4 * 1024 * 1024;
/** Between two reads of a running prediction. */
const POLL_INTERVAL_MS = 500;

/**
 * Replicate (channel type 56): chat and image generation as predictions of a model
 * (`owner/name`, or a version `owner/name:version`), through its own transport:
 * - a complete answer is created with `Prefer: wait`; a prediction still `starting` or
 *   `processing` when Replicate stops waiting is polled on the channel's host until it finishes,
 *   within the relay timeout, else the attempt fails with 504 (and the prediction is cancelled);
 * - a stream is created, then its `urls.stream` followed with a second request, only when that
 *   URL is on the channel's site (`streamUrlOnChannelSite`: the key goes nowhere else), and the finished prediction is
 *   read for its metrics before the stream ends; otherwise the stream URL is never called and
 *   the prediction is polled instead, its output sent as one stream event.
 * Replicate's problem+json errors become OpenAI-shaped errors of the same status (402, no
 * credit, as `insufficient_quota`), so a bad key (401) or an empty account disables the channel.
 */
@Injectable()
export class ReplicateAdaptor extends ConvertingAdaptor implements NativeAdaptor, OwnTransport {
  readonly channelTypes = [CHANNEL_TYPE.REPLICATE];
  readonly format = 'replicate';
  readonly streamUsageMarker = /"metrics"/;

  constructor(private readonly upstream: UpstreamClientService) {
    super();
  }

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat' && target.endpoint !== 'images') return undefined;
    const prediction = predictionTarget(target.upstreamModel);
    return prediction && new URL(`${baseUrl(target.channel)}${prediction.path}`);
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
    // A stream needs the prediction's URLs at once; a complete answer waits for the output.
    if (!target.stream) headers.prefer = 'wait';
    return headers;
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return Promise.resolve(predictionFromOpenAI(target.endpoint, body, predictionTarget(target.upstreamModel) ?? { path: '' }, target.stream));
  }

  parseResponse(body: unknown): AnswerReading {
    return readPrediction(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIFromPrediction(target.endpoint, body as JsonObject, target.upstreamModel);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new ReplicateStreamDecoder(target.upstreamModel, usage);
  }

  async call(target: UpstreamTarget, request: UpstreamCall): Promise<UpstreamAnswer> {
    const deadline = Date.now() + request.headersTimeoutMs;
    const created = await this.upstream.relay(request);
    if (created.statusCode >= 300) return created.statusCode >= 400 ? openAIError(created) : created;
    const prediction = await readJson(created);
    if (!prediction) return errorAnswer(502, 'Replicate answered with invalid JSON', 'bad_response');
    if (!target.stream) return this.finished(target, request, prediction, deadline);
    const streamUrl = streamUrlOnChannelSite(target.channel, (prediction.urls as JsonObject | undefined)?.stream);
    if (!streamUrl) {
      // No stream URL (a model without streaming), or one off the channel's site, which is never called: the prediction is polled.
      const answer = await this.finished(target, request, prediction, deadline);
      if (answer.statusCode !== 200) return answer;
      return bufferedAnswer(200, 'text/event-stream', Buffer.from(predictionAsStream((await readJson(answer)) ?? {})));
    }
    const stream = await this.upstream.relay({ ...request, url: streamUrl, method: 'GET', headers: { authorization: `Bearer ${target.key}`, accept: 'text/event-stream' }, body: undefined });
    if (stream.statusCode >= 400) return openAIError(stream);
    return this.withMetrics(target, request, String(prediction.id ?? ''), stream);
  }

  /**
   * The output stream as it comes, but for its `done` event, which waits until the finished
   * prediction has been read (on the channel's host) and then carries its `metrics`: the
   * stream is billed from Replicate's own token counts. Without them it ends as it came.
   */
  private withMetrics(target: UpstreamTarget, request: UpstreamCall, id: string, stream: UpstreamAnswer): UpstreamAnswer {
    const answer = new UpstreamAnswerReader(undefined, undefined);
    // Dropped by the relay (the client went away): the upstream stream goes too, and nothing more is written.
    let dropped = false;
    answer.onConnect(() => {
      dropped = true;
      stream.destroy();
    });
    answer.onHeaders(200, [Buffer.from('content-type'), Buffer.from('text/event-stream')], () => undefined);
    const events = new SseDecoder();
    let done: SseEvent | undefined;
    const pass = (read: SseEvent[]) => {
      for (const event of read) {
        if (event.event === 'done') done = event;
        else answer.onData(Buffer.from(sseEvent(event)));
      }
    };
    stream.follow(
      (chunk) => pass(events.push(chunk)),
      (failed) => {
        if (dropped) return;
        if (failed) return answer.onError(new Error('The prediction stream broke off'));
        pass(events.end());
        if (!done) return answer.onComplete();
        const ended = done;
        void this.metricsOf(target, request, id).then((metrics) => {
          if (dropped) return;
          answer.onData(Buffer.from(sseEvent({ event: 'done', data: JSON.stringify({ ...parseObject(ended.data), ...(metrics ? { metrics } : {}) }) })));
          answer.onComplete();
        });
      },
    );
    return answer;
  }

  /** The finished prediction's metrics, or undefined when it cannot be read. */
  private async metricsOf(target: UpstreamTarget, request: UpstreamCall, id: string): Promise<unknown> {
    try {
      const polled = await this.upstream.relay({ ...request, url: predictionUrl(target.channel, id), method: 'GET', headers: { authorization: `Bearer ${target.key}` }, body: undefined });
      return polled.statusCode === 200 ? (await readJson(polled))?.metrics : (polled.destroy(), undefined);
    } catch {
      return undefined;
    }
  }

  /** The prediction once it has finished: as it came, or read again on the channel's host until it does. */
  private async finished(target: UpstreamTarget, request: UpstreamCall, prediction: JsonObject, deadline: number): Promise<UpstreamAnswer> {
    let current = prediction;
    while (!FINISHED_STATUSES.has(String(current.status))) {
      const id = typeof current.id === 'string' ? current.id : '';
      if (!id || Date.now() + POLL_INTERVAL_MS > deadline) {
        if (id) this.cancel(target, request, id);
        return errorAnswer(504, 'The prediction did not finish within the relay timeout', 'prediction_timeout');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      if (request.signal?.aborted) throw new RelayError('invalid_request', 'The client closed the connection', 499);
      const polled = await this.upstream.relay({ ...request, url: predictionUrl(target.channel, id), method: 'GET', headers: { authorization: `Bearer ${target.key}` }, body: undefined });
      if (polled.statusCode >= 400) return openAIError(polled);
      const read = await readJson(polled);
      if (!read) return errorAnswer(502, 'Replicate answered with invalid JSON', 'bad_response');
      current = read;
    }
    if (current.status !== 'succeeded') {
      // A prediction that failed at run time is the model's fault, not the request's (its input was accepted): another channel may serve.
      const message = typeof current.error === 'string' && current.error ? current.error : `The prediction ended ${String(current.status)}`;
      return errorAnswer(502, message, 'prediction_failed');
    }
    return bufferedAnswer(200, 'application/json', Buffer.from(JSON.stringify(current)));
  }

  /** Stops a prediction nobody waits for any more (it costs while it runs); best effort. */
  private cancel(target: UpstreamTarget, request: UpstreamCall, id: string): void {
    const url = new URL(`${predictionUrl(target.channel, id).href}/cancel`);
    this.upstream
      .relay({ url, method: 'POST', headers: { authorization: `Bearer ${target.key}` }, headersTimeoutMs: request.headersTimeoutMs, bodyTimeoutMs: request.headersTimeoutMs })
      .then((answer) => answer.destroy())
      .catch(() => undefined);
  }
}

function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A prediction is read on the channel's own host, never at the `urls.get` its answer names. */
function predictionUrl(channel: RelayChannel, id: string): URL {
  return new URL(`${baseUrl(channel)}/v1/predictions/${encodeURIComponent(id)}`);
}

/**
 * The stream URL when the key may travel to it, else undefined: on the channel's own origin, or,
 * over https, on a host of the channel host's own domain (Replicate streams from
 * `streaming.api.replicate.com` beside `api.replicate.com`). An IP address or a one-label parent
 * domain allows the channel's origin alone.
 */
export function streamUrlOnChannelSite(channel: RelayChannel, value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    const base = new URL(baseUrl(channel));
    if (url.origin === base.origin) return url;
    const parent = base.hostname.split('.').slice(1).join('.');
    const namedHost = !/^[\d.]+$/.test(base.hostname) && !base.hostname.includes(':');
    const sameSite = namedHost && parent.includes('.') && url.hostname.endsWith(`.${parent}`);
    return sameSite && url.protocol === 'https:' && base.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

async function readJson(answer: UpstreamAnswer): Promise<JsonObject | undefined> {
  const bytes = await answer.collect(PREDICTION_LIMIT);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replicate's error (problem+json: `{"title", "detail", "status"}`) as an OpenAI-shaped error
 * of the same status, which the relay's rules read: 402 (no credit) says `insufficient_quota`.
 */
async function openAIError(answer: UpstreamAnswer): Promise<UpstreamAnswer> {
  const bytes = (await answer.collect(PREDICTION_LIMIT).catch(() => undefined)) ?? Buffer.alloc(0);
  let problem: JsonObject = {};
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof value === 'object' && value !== null) problem = value as JsonObject;
  } catch {
    problem = { detail: bytes.toString('utf8').trim() };
  }
  const message = [problem.detail, problem.title].find((text): text is string => typeof text === 'string' && text !== '') ?? `Replicate answered ${answer.statusCode}`;
  const code = answer.statusCode === 402 ? 'insufficient_quota' : typeof problem.title === 'string' ? problem.title : undefined;
  return errorAnswer(answer.statusCode, message, code);
}

function errorAnswer(status: number, message: string, code: string | undefined): UpstreamAnswer {
  return bufferedAnswer(status, 'application/json', Buffer.from(JSON.stringify({ error: { message, type: 'upstream_error', code: code ?? null } })));
}

/** An answer the transport made itself, read as any upstream answer is. */
function bufferedAnswer(status: number, contentType: string, body: Buffer): UpstreamAnswer {
  const answer = new UpstreamAnswerReader(undefined, undefined);
  answer.onHeaders(status, [Buffer.from('content-type'), Buffer.from(contentType), Buffer.from('content-length'), Buffer.from(String(body.length))], () => undefined);
  answer.onData(body);
  answer.onComplete();
  return answer;
}
