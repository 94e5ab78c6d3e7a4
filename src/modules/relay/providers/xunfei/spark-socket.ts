import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { errors } from 'undici';
import WebSocket from 'ws';
import { UpstreamAnswerReader, type AbortEmitter, type UpstreamAnswer } from '../../../outbound/upstream-answer';
import type { JsonObject } from '../../wire/wire-format';
import { socketUrl } from '../socket-url';
import { sseFrame } from '../../wire/sse-decoder';
import { isLastSparkFrame, joinSparkFrames, sparkAnswerError, type SparkCredentials } from './spark-content';

/** A Spark frame is a few kilobytes; a peer sending more than this is not Spark. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;
const EVENT_STREAM_HEADERS = [Buffer.from('content-type'), Buffer.from('text/event-stream')];
const JSON_HEADERS = [Buffer.from('content-type'), Buffer.from('application/json')];


/**
 * Spark's URL authentication (iFlytek's "通用URL鉴权"): HMAC-SHA256 with the API secret over
 * `host: …\ndate: …\nGET /path HTTP/1.1`, and `authorization` the base64 of
 * `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"`,
 * passed with `date` and `host` as query parameters. The URL goes over ws(s), whatever
 * scheme the base URL was written with.
 */
export function signedSparkUrl(url: URL, credentials: Pick<SparkCredentials, 'apiKey' | 'apiSecret'>, now: Date): URL {
  const date = now.toUTCString();
  const signature = createHmac('sha256', credentials.apiSecret).update(`host: ${url.host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`).digest('base64');
  const authorization = Buffer.from(`api_key="${credentials.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`).toString('base64');
  const signed = socketUrl(url);
  signed.search = new URLSearchParams({ authorization, date, host: url.host }).toString();
  return signed;
}

export interface SparkExchangeOptions {
  /** The client asked for a stream: frames go on as server-sent events, else one joined answer. */
  stream: boolean;
  signal?: AbortEmitter;
  /** Longest wait for the first frame. */
  headersTimeoutMs: number;
  /** Longest silence between two frames. */
  bodyTimeoutMs: number;
  /** The outbound guard's lookup: the socket dials only addresses it has checked. */
  lookup: LookupFunction;
}

/**
 * One Spark chat over its WebSocket: sends the request frame and answers what an HTTP call
 * would (UpstreamAnswer): a stream's frames as server-sent events (each frame's JSON as an
 * event), a whole answer as one JSON in the frames' shape, or, when Spark refuses the
 * handshake (a bad signature: 401), that HTTP answer as it is. The client going away, or the
 * answer being dropped, closes the socket.
 */
export function exchangeSparkFrames(url: URL, requestFrame: string, options: SparkExchangeOptions): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => new SparkExchange(url, requestFrame, options, new UpstreamAnswerReader(options.signal, { resolve, reject })).start());
}

/** The state of one exchange; the answer's body is read through UpstreamAnswerReader, as an HTTP answer is. */
class SparkExchange {
  private socket?: WebSocket;
  private finished = false;
  private answered = false;
  private timer?: NodeJS.Timeout;
  private readonly frames: JsonObject[] = [];

  constructor(
    private readonly url: URL,
    private readonly requestFrame: string,
    private readonly options: SparkExchangeOptions,
    private readonly reader: UpstreamAnswerReader,
  ) {}

  start(): void {
    this.reader.onConnect((reason) => this.fail(reason ?? new errors.RequestAbortedError()));
    if (this.finished) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url, { lookup: this.options.lookup, perMessageDeflate: false, followRedirects: false, maxPayload: MAX_FRAME_BYTES });
    } catch (error) {
      return this.fail(error as Error);
    }
    this.socket = socket;
    this.waitAtMost(this.options.headersTimeoutMs, () => new errors.HeadersTimeoutError());
    socket.on('open', () => socket.send(this.requestFrame, { binary: false }));
    socket.on('message', (data: WebSocket.RawData) => this.onFrame(data));
    socket.on('unexpected-response', (_request, response: IncomingMessage) => this.onRefusal(response));
    socket.on('error', (error: Error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('iFlytek Spark closed the connection before its last frame')));
  }

  private onFrame(data: WebSocket.RawData): void {
    if (this.finished) return;
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    let frame: JsonObject;
    try {
      frame = JSON.parse(text) as JsonObject;
    } catch {
      return this.fail(new Error('iFlytek Spark sent a frame that is not JSON'));
    }
    const last = typeof frame === 'object' && frame !== null && isLastSparkFrame(frame);
    if (this.options.stream) this.deliver(EVENT_STREAM_HEADERS, Buffer.from(sseFrame(text)));
    else {
      this.frames.push(frame);
      if (last) this.deliver(JSON_HEADERS, Buffer.from(JSON.stringify(sparkAnswerError(frame) ? frame : joinSparkFrames(this.frames))));
    }
    if (last) this.complete();
    else this.waitAtMost(this.options.bodyTimeoutMs, () => new errors.BodyTimeoutError());
  }

  /** Bytes of the answer, its headers first; Spark is paused while the reader holds back. */
  private deliver(headers: Buffer[], bytes: Buffer): void {
    if (!this.answered) {
      this.answered = true;
      this.reader.onHeaders(200, headers, () => this.socket?.resume());
    }
    if (!this.reader.onData(bytes)) this.socket?.pause();
  }

  private complete(): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.reader.onComplete();
    this.socket?.close(1000);
  }

  /** Spark answered the upgrade with an HTTP error (a wrong signature, a stale date): that answer, as it is. */
  private onRefusal(response: IncomingMessage): void {
    if (this.finished) return;
    clearTimeout(this.timer);
    this.answered = true;
    this.reader.onHeaders(response.statusCode ?? 502, response.rawHeaders.map((part) => Buffer.from(part, 'latin1')), () => response.resume());
    response.on('data', (chunk: Buffer) => {
      if (!this.finished && !this.reader.onData(chunk)) response.pause();
    });
    response.on('end', () => {
      if (this.finished) return;
      this.finished = true;
      this.reader.onComplete();
      this.socket?.terminate();
    });
    response.on('error', (error) => this.fail(error));
  }

  private waitAtMost(ms: number, timeout: () => Error): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(timeout()), ms);
  }

  private fail(error: Error): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    this.socket?.terminate();
    this.reader.onError(error);
  }
}
