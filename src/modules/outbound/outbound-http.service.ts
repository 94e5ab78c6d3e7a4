import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'node:tls';
import { Agent, Dispatcher } from 'undici';
import { OptionsService } from '../options/options.service';
import { ALLOW_PRIVATE_OPTION, OutboundGuardService } from './outbound-guard.service';
import { UpstreamAnswerReader, type AbortEmitter, type UpstreamAnswer } from './upstream-answer';
import { WorkerFetchService } from './worker-fetch.service';

export interface OutboundCall {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: Dispatcher.RequestOptions['signal'];
  /** Longest wait for the answer's headers. */
  headersTimeoutMs: number;
  /** Longest silence between two chunks of the answer's body. */
  bodyTimeoutMs: number;
}

/** Enough for a provider's or a webhook host's own redirects; a chain longer than this is refused. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for the first host only: dropped when a redirect leaves its origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-goog-api-key'];

export class TooManyRedirectsError extends Error {
  constructor() {
    super(`more than ${MAX_REDIRECTS} redirects`);
    this.name = 'TooManyRedirectsError';
  }
}

/**
 * The one HTTP client for everything the gateway sends out: a shared undici Agent that keeps
 * connections alive per origin (pipelining 1, since upstream answers can take minutes). Every
 * call passes the outbound guard: the URL before sending, each resolved address inside
 * connect (pinned). `send` never follows a redirect (the relay: a channel key only ever reaches
 * the channel's host); `sendFollowingRedirects` follows them one hop at a time, each hop
 * judged by the guard again.
 */
@Injectable()
export class OutboundHttpService implements OnApplicationShutdown {
  private agent: Agent;
  private tls: ConnectionOptions = {};

  constructor(
    private readonly guard: OutboundGuardService,
    private readonly worker: WorkerFetchService,
    options: OptionsService,
  ) {
    this.agent = this.createAgent();
    // Pooled connections were judged under the old setting: start a fresh pool when it changes.
    options.onChange((key) => {
      if (key === ALLOW_PRIVATE_OPTION) this.renewAgent();
    });
  }

  send(call: OutboundCall): Promise<Dispatcher.ResponseData> {
    try {
      this.guard.assertUrlAllowed(call.url);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.agent.request({ ...dispatchOptions(call), signal: call.signal });
  }

  /**
   * A relay call: `send` with an answer whose body is read from undici's callbacks, collected
   * whole or made a stream only when asked (see UpstreamAnswer). Never follows a redirect.
   */
  relay(call: OutboundCall & { signal?: AbortEmitter }): Promise<UpstreamAnswer> {
    try {
      this.guard.assertUrlAllowed(call.url);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise((resolve, reject) => this.agent.dispatch(dispatchOptions(call), new UpstreamAnswerReader(call.signal, { resolve, reject })));
  }

  /**
   * Follows up to MAX_REDIRECTS redirects, as browsers do (303, and 301/302 after a POST,
   * continue as a GET without the body), through the guard on every hop: a public host that
   * redirects to a metadata or private address is refused before connecting.
   */
  async sendFollowingRedirects(call: OutboundCall): Promise<Dispatcher.ResponseData> {
    let hop = call;
    for (let redirects = 0; ; redirects++) {
      const answer = await this.send(hop);
      const location = answer.headers.location;
      if (!REDIRECT_STATUSES.has(answer.statusCode) || typeof location !== 'string') return answer;
      await answer.body.dump();
      if (redirects >= MAX_REDIRECTS) throw new TooManyRedirectsError();
      hop = nextHop(hop, new URL(location, hop.url), answer.statusCode);
    }
  }

  /**
   * A request the gateway makes for itself, not a relay (an image to inline, a balance, a
   * webhook): through the worker when WorkerUrl is set, else directly, following redirects.
   * A body is JSON here, which the worker protocol carries as JSON.
   */
  sendOwn(call: OutboundCall): Promise<Dispatcher.ResponseData> {
    if (!this.worker.enabled) return this.sendFollowingRedirects(call);
    const json: unknown = call.body === undefined ? undefined : JSON.parse(call.body.toString());
    return this.worker.send({ url: call.url, method: call.method, headers: call.headers, json, timeoutMs: Math.max(call.headersTimeoutMs, call.bodyTimeoutMs) });
  }

  /** Tests that stand up an https server with a throwaway certificate make this client trust it. */
  trustForTests(tls: ConnectionOptions): void {
    this.tls = tls;
    this.renewAgent();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }

  private renewAgent(): void {
    const previous = this.agent;
    this.agent = this.createAgent();
    void previous.close();
  }

  private createAgent(): Agent {
    return new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1, connections: 1024, connect: { ...this.tls, lookup: this.guard.lookup } });
  }
}

/** The call as undici's request options (all but the abort signal, which each reader takes its own way). */
function dispatchOptions(call: OutboundCall): Dispatcher.DispatchOptions {
  return {
    origin: call.url.origin,
    path: call.url.pathname + call.url.search,
    method: call.method,
    headers: call.headers,
    body: call.body,
    headersTimeout: call.headersTimeoutMs,
    bodyTimeout: call.bodyTimeoutMs,
  };
}

function nextHop(previous: OutboundCall, url: URL, status: number): OutboundCall {
  const headers = { ...previous.headers };
  if (url.origin !== previous.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  const asGet = status === 303 || ((status === 301 || status === 302) && previous.method === 'POST');
  if (!asGet) return { ...previous, url, headers };
  delete headers['content-type'];
  return { ...previous, url, headers, method: 'GET', body: undefined };
}
