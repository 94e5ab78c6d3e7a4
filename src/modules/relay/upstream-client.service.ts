import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { outboundRefusal } from '../outbound/outbound-guard.service';
import { OutboundHttpService, TooManyRedirectsError, type OutboundCall } from '../outbound/outbound-http.service';
import type { UpstreamAnswer } from '../outbound/upstream-answer';
import { RelayError } from './relay-error';

export interface UpstreamCall extends OutboundCall {
  signal?: UpstreamAbort;
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
 * Upstream calls, through the gateway's one guarded HTTP client (OutboundHttpService). The
 * relay's own calls never follow redirects, so a channel key only ever reaches the channel's
 * host; fetches of other URLs (images, balances) go through the worker when WorkerUrl is set,
 * else follow redirects, each hop judged by the guard.
 */
@Injectable()
export class UpstreamClientService {
  constructor(private readonly http: OutboundHttpService) {}

  send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    return this.http.send(call);
  }

  /** The relay's call to a channel: its answer's body is collected whole or streamed (see UpstreamAnswer). */
  relay(call: UpstreamCall): Promise<UpstreamAnswer> {
    return this.http.relay(call);
  }

  /** A fetch of the gateway's own (image, balance): through the worker when one is set, else following redirects hop by hop. */
  sendOwn(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    return this.http.sendOwn(call);
  }
}

/** Turns a transport failure into a relay error that names no URL, host or key. */
export function transportError(error: unknown): RelayError {
  if (outboundRefusal(error)) return new RelayError('channel:address_refused', "The gateway's outbound guard refused the channel's address", 502);
  if (error instanceof TooManyRedirectsError) return new RelayError('channel:bad_response', 'The upstream redirected too many times', 502);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_INVALID_URL') return new RelayError('channel:bad_response', "The channel's base URL does not make a valid URL", 502);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new RelayError('channel:timeout', 'The upstream did not answer in time', 504);
  }
  return new RelayError('channel:connection_error', 'Could not reach the upstream', 502);
}
