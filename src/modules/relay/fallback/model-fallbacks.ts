import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { ModelFallbacks } from '../../options/option-definitions';
import type { JsonObject } from '../wire/wire-format';
import type { RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';
import type { ClientResponse } from '../wire/client-stream-writers';

/** Names the model that served, on an answer a fallback model gave. */
export const FALLBACK_MODEL_HEADER = 'x-gateway-fallback-model';

/**
 * The models to try after `requested`, in order: the token's own list when it has one (it
 * replaces the setting's), else the setting's list for the model. The requested model and
 * repeats are dropped, so a chain never loops. Only JSON bodies fall back: a multipart upload
 * names its model inside its bytes.
 */
export function fallbackChain(caller: RelayCaller, requested: string, body: JsonObject | undefined, setting: ModelFallbacks): readonly string[] {
  if (!body) return NO_FALLBACKS;
  const tokenList = caller.token?.modelFallbacks;
  // Own keys only: a model named `constructor` must not find Object's.
  const list = tokenList && tokenList.length > 0 ? tokenList : Object.hasOwn(setting, requested) ? setting[requested] : undefined;
  if (!list || list.length === 0) return NO_FALLBACKS;
  return [...new Set(list)].filter((model) => model !== requested);
}

const NO_FALLBACKS: readonly string[] = [];

/** Refusals by a provider's content policy: another model would be asked to say what this one would not. */
const CONTENT_REFUSAL = /content[ _-]?(filter|policy|management)|safety[ _-]?(system|filter|block)|moderation|prohibited[ _-]content/i;

/**
 * Whether the model's failure lets the next model of its chain try: faults that are not the
 * client's (5xx, 429, timeouts, connection errors, a broken channel, no channel available
 * now). The client's own errors (4xx) and content-policy refusals answer as they are.
 */
export function fallsBack(error: RelayError): boolean {
  if (CONTENT_REFUSAL.test(error.wireCode ?? '') || CONTENT_REFUSAL.test(error.message)) return false;
  if (error.isChannelFault || error.code === 'no_available_channel') return true;
  // An upstream's 5xx that failover does not retry (504/524: it already spent the time); not our own 5xx (an answer too large, the database away).
  return error.upstreamStatus !== undefined && error.upstreamStatus >= 500 && error.status >= 500;
}

/** The chain's one RELAY_TIMEOUT ran out before any model answered. */
export function budgetSpent(): RelayError {
  return new RelayError('channel:timeout', 'The model and its fallbacks did not answer within RELAY_TIMEOUT', 504);
}

/**
 * The client's answer while a chain runs: remembers whether anything went out (a stream that
 * began never falls back) and, once a fallback model serves, names it in the answer's headers.
 */
export class FallbackResponse implements ClientResponse {
  /** Set when the answer's head or any byte went out. */
  began = false;
  /** The fallback model now serving; its name goes out in FALLBACK_MODEL_HEADER. */
  fallbackModel?: string;

  constructor(private readonly response: ClientResponse) {}

  get socket() {
    return this.response.socket;
  }

  get writableEnded(): boolean {
    return this.response.writableEnded;
  }

  get writableFinished(): boolean {
    return this.response.writableFinished;
  }

  writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): unknown {
    this.began = true;
    if (this.fallbackModel === undefined) return this.response.writeHead(statusCode, headers);
    if (Array.isArray(headers)) return this.response.writeHead(statusCode, [...headers, FALLBACK_MODEL_HEADER, this.fallbackModel]);
    return this.response.writeHead(statusCode, { ...headers, [FALLBACK_MODEL_HEADER]: this.fallbackModel });
  }

  write(chunk: string | Buffer): boolean {
    this.began = true;
    return this.response.write(chunk);
  }

  end(chunk?: string | Buffer): unknown {
    this.began = true;
    return this.response.end(chunk);
  }

  on(event: 'close' | 'drain', listener: () => void): unknown {
    return this.response.on(event, listener);
  }

  off(event: 'close' | 'drain', listener: () => void): unknown {
    return this.response.off(event, listener);
  }
}
