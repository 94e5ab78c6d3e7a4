import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Agent, Dispatcher } from 'undici';
import { RelayError } from './relay-error';

export interface UpstreamCall {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: UpstreamAbort;
  /** Longest wait for the answer's headers. */
  headersTimeoutMs: number;
  /** Longest silence between two chunks of the answer's body. */
  bodyTimeoutMs: number;
}

/**
 * Aborts an upstream call when the client goes away. undici takes an EventEmitter as a
 * signal; an AbortController costs several times more per request (EventTarget machinery).
 */
export class UpstreamAbort extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * The one HTTP client for upstream calls: a shared undici Agent that keeps connections alive
 * per origin (pipelining 1, since upstream answers can take minutes). It never follows
 * redirects, so a channel key only ever reaches the channel's own host.
 */
@Injectable()
export class UpstreamClientService implements OnApplicationShutdown {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1, connections: 1024 });

  send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    return this.agent.request({
      origin: call.url.origin,
      path: call.url.pathname + call.url.search,
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: call.signal,
      headersTimeout: call.headersTimeoutMs,
      bodyTimeout: call.bodyTimeoutMs,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }
}

/** Turns a transport failure into a relay error that names no URL, host or key. */
export function transportError(error: unknown): RelayError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new RelayError('channel:timeout', 'The upstream did not answer in time', 504);
  }
  return new RelayError('channel:connection_error', 'Could not reach the upstream', 502);
}
