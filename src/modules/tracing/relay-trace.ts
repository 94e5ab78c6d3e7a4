import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BilledUsage } from '../billing/billing-formula';
import type { RelayChannel } from '../relay/caches/relay-channel';
import type { RelayError } from '../relay/relay-error';
import type { AttemptResult } from '../relay/stages/deliver.stage';
import type { Delivery, RelayRoute } from '../relay/stages/relay-request';

/**
 * What the relay asks of tracing, in its own terms. Only types: the OpenTelemetry code behind
 * it (otel-relay-tracer.ts) is loaded when tracing is on, never otherwise.
 */
export interface RelayTracer {
  /** A relay request came in: its span, the child of the client's `traceparent` when it sent one. */
  startRequest(request: IncomingMessage, route: RelayRoute, requestId: string): RequestTrace;
  /** An /api request: one span (method, route, status), ended when the answer is sent. */
  traceApiRequest(request: IncomingMessage, response: ServerResponse, requestId: string): void;
}

/** The span of one relay request, from arrival to the end of its answer (a stream's last byte). */
export interface RequestTrace {
  /** The request passed its checks: the model the client asked for, and whether it streams. */
  prepared(model: string, stream: boolean): void;
  /** The `attempt`-th upstream attempt (1-based), on `channel`: a child span. */
  attempt(channel: RelayChannel, attempt: number): AttemptTrace;
  /** The answer reached the client; the span ends at this moment once `finish` brings the usage. */
  delivered(delivery: Delivery): void;
  /** The usage billed (the upstream's, or the gateway's count; none when counting failed): ends the span. */
  finish(usage?: BilledUsage): void;
  /** The client got an error: ends the span. `model` when the request got as far as naming one. */
  failed(error: RelayError, model: string | undefined): void;
}

/** The span of one upstream attempt, whose context the upstream call carries as `traceparent`. */
export interface AttemptTrace {
  /** The call is about to leave: the model asked of the upstream; adds `traceparent` (and `tracestate`) to its headers. */
  sending(upstreamModel: string, headers: Record<string, string>): void;
  /** The upstream answered with this HTTP status. */
  answered(status: number): void;
  /** The attempt's outcome: ends the span. */
  end(result: AttemptResult): void;
}
