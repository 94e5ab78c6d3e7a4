import { Readable } from 'node:stream';
import { errors, util, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';

/** What a relay call can be aborted by: undici's signal shape (see UpstreamAbort). */
export interface AbortEmitter {
  aborted: boolean;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/**
 * An upstream's answer to a relay call. Its body is read one of three ways, straight from
 * undici's callbacks: `collect` for a complete answer, `follow` chunk by chunk (an event
 * stream passed on), or `body`, a stream made on first use (a provider's own framing, error
 * texts). undici's own `request()` wraps every answer in a stream and a promise; on the
 * relay's hot path that was several µs per request.
 */
export interface UpstreamAnswer {
  statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** One header's value (the first of a repeated one) without parsing the rest; `name` in lower case. */
  header(name: string): string | undefined;
  /** The body as a stream, with backpressure; made on first use. */
  readonly body: Readable;
  /** The whole body, or undefined (the rest not read, the connection closed) once it passes `limit` bytes. */
  collect(limit: number): Promise<Buffer | undefined>;
  /** Calls `data` for each chunk (those already in first), then `end` once: `failed` when the body broke off. */
  follow(data: (chunk: Buffer) => void, end: (failed: boolean) => void): void;
  /** Backpressure for `follow`: no more chunks until `resume`. */
  pause(): void;
  resume(): void;
  /** Drops the body: the connection closes unless the answer was already complete; a follower's `end` comes, failed. */
  destroy(): void;
}

/**
 * undici's handler for one relay call, and the answer it builds. Resolves `answered` at the
 * answer's headers (or rejects with the transport's error before them); chunks that arrive
 * before the caller chooses how to read the body wait in `chunks`.
 *
 * It speaks the callbacks undici 7's Client itself calls (onConnect, onHeaders, onData,
 * onComplete, onError). A handler of the newer form (onRequestStart, onResponseStart, …) is
 * wrapped per call in an adapter that also parses every header and trailer into an object;
 * here the headers are parsed only when read.
 */
export class UpstreamAnswerReader implements Dispatcher.DispatchHandler, UpstreamAnswer {
  statusCode = 0;
  private rawHeaders: Buffer[] = [];
  private parsedHeaders?: IncomingHttpHeaders;
  private abortCall?: (reason: Error) => void;
  private resumeCall?: () => void;
  /** Asked by pause(): undici stops reading when onHeaders or onData answers false. */
  private paused = false;
  private chunks: Buffer[] = [];
  private size = 0;
  private ended = false;
  private failure?: Error;
  private stream?: Readable;
  private collecting?: { limit: number; resolve(body: Buffer | undefined): void; reject(error: Error): void };
  private follower?: { data(chunk: Buffer): void; end(failed: boolean): void };
  private readonly onAbort = () => this.abortCall?.(new errors.RequestAbortedError());

  constructor(
    private readonly signal: AbortEmitter | undefined,
    private answered: { resolve(answer: UpstreamAnswer): void; reject(error: Error): void } | undefined,
  ) {}

  get headers(): IncomingHttpHeaders {
    return (this.parsedHeaders ??= util.parseHeaders(this.rawHeaders) as IncomingHttpHeaders);
  }

  header(name: string): string | undefined {
    if (this.parsedHeaders) {
      const value = this.parsedHeaders[name];
      return Array.isArray(value) ? value[0] : value;
    }
    const raw = this.rawHeaders;
    for (let index = 0; index < raw.length; index += 2) {
      if (raw[index].length === name.length && util.headerNameToString(raw[index]) === name) return raw[index + 1].toString('latin1');
    }
    return undefined;
  }

  get body(): Readable {
    if (this.stream) return this.stream;
    const stream = new Readable({
      read: () => this.resume(),
      destroy: (error, callback) => {
        if (!this.ended) this.abortCall?.(error ?? new errors.RequestAbortedError());
        callback(error);
      },
    });
    for (const chunk of this.chunks) stream.push(chunk);
    this.chunks = [];
    if (this.failure) stream.destroy(this.failure);
    else if (this.ended) stream.push(null);
    this.stream = stream;
    return stream;
  }

  collect(limit: number): Promise<Buffer | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.size > limit) return Promise.resolve(this.dropped());
    if (this.ended) return Promise.resolve(this.whole());
    return new Promise((resolve, reject) => (this.collecting = { limit, resolve, reject }));
  }

  follow(data: (chunk: Buffer) => void, end: (failed: boolean) => void): void {
    const chunks = this.chunks;
    this.chunks = [];
    for (const chunk of chunks) data(chunk);
    if (this.failure) return end(true);
    if (this.ended) return end(false);
    this.follower = { data, end };
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.resumeCall?.();
  }

  destroy(): void {
    this.chunks = [];
    if (!this.ended) this.abortCall?.(new errors.RequestAbortedError());
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortCall = abort;
    if (!this.signal) return;
    if (this.signal.aborted) abort(new errors.RequestAbortedError());
    else this.signal.once('abort', this.onAbort);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx answers (100 Continue) come before the real one.
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    this.rawHeaders = rawHeaders;
    this.parsedHeaders = undefined;
    this.resumeCall = resume;
    this.answered?.resolve(this);
    this.answered = undefined;
    return !this.paused;
  }

  onData(chunk: Buffer): boolean {
    if (this.follower) {
      this.follower.data(chunk);
      return !this.paused;
    }
    if (this.stream) {
      if (!this.stream.push(chunk)) this.paused = true;
      return !this.paused;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    const collecting = this.collecting;
    if (collecting && this.size > collecting.limit) {
      this.collecting = undefined;
      collecting.resolve(this.dropped());
    }
    return !this.paused;
  }

  onComplete(): void {
    this.ended = true;
    this.signal?.off('abort', this.onAbort);
    if (this.stream) this.stream.push(null);
    this.follower?.end(false);
    const collecting = this.collecting;
    this.collecting = undefined;
    collecting?.resolve(this.whole());
  }

  onError(error: Error): void {
    this.signal?.off('abort', this.onAbort);
    this.failure = error;
    this.chunks = [];
    if (this.answered) {
      this.answered.reject(error);
      this.answered = undefined;
      return;
    }
    this.stream?.destroy(error);
    this.follower?.end(true);
    const collecting = this.collecting;
    this.collecting = undefined;
    collecting?.reject(error);
  }

  private whole(): Buffer {
    const chunks = this.chunks;
    this.chunks = [];
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.size);
  }

  /** Past the limit: the rest is never read, so a huge answer does not grow the gateway's memory. */
  private dropped(): undefined {
    this.destroy();
    return undefined;
  }
}
