import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Agent, Dispatcher } from 'undici';
import { OutboundRefusedError } from '../outbound/address-policy';
import { ALLOW_PRIVATE_OPTION, OutboundGuardService } from '../outbound/outbound-guard.service';
import { OptionsService } from '../options/options.service';
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
 * redirects, so a channel key only ever reaches the channel's own host. Every call passes
 * the outbound guard: the URL before sending, each resolved address inside connect (pinned).
 */
@Injectable()
export class UpstreamClientService implements OnApplicationShutdown {
  private agent: Agent;

  constructor(
    private readonly guard: OutboundGuardService,
    options: OptionsService,
  ) {
    this.agent = this.createAgent();
    // Pooled connections were judged under the old setting: start a fresh pool when it changes.
    options.onChange((key) => {
      if (key !== ALLOW_PRIVATE_OPTION) return;
      const previous = this.agent;
      this.agent = this.createAgent();
      void previous.close();
    });
  }

  send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    try {
      this.guard.assertUrlAllowed(call.url);
    } catch (error) {
      return Promise.reject(error as Error);
    }
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

  private createAgent(): Agent {
    return new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1, connections: 1024, connect: { lookup: this.guard.lookup } });
  }
}

/** The guard's refusal, whether thrown before sending or from inside the socket's connect. */
export function outboundRefusal(error: unknown): OutboundRefusedError | undefined {
  if (error instanceof OutboundRefusedError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof OutboundRefusedError ? cause : undefined;
}

/** Turns a transport failure into a relay error that names no URL, host or key. */
export function transportError(error: unknown): RelayError {
  if (outboundRefusal(error)) return new RelayError('channel:address_refused', "The gateway's outbound guard refused the channel's address", 502);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new RelayError('channel:timeout', 'The upstream did not answer in time', 504);
  }
  return new RelayError('channel:connection_error', 'Could not reach the upstream', 502);
}
