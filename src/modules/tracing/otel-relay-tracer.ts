import { Logger } from '@nestjs/common';
import { diag, DiagLogLevel, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type DiagLogger, type Span, type Tracer } from '@opentelemetry/api';
import { startNodeSdk } from '@opentelemetry/sdk-node';
import { ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withoutRequestId } from '../../common/logging/request-context';
import type { BilledUsage } from '../billing/billing-formula';
import type { RelayChannel } from '../relay/caches/relay-channel';
import type { RelayError } from '../relay/relay-error';
import type { AttemptResult } from '../relay/stages/deliver.stage';
import type { Delivery, RelayRoute } from '../relay/stages/relay-request';
import { genAiOperation, genAiSystem } from './gen-ai-attributes';
import type { AttemptTrace, RelayTracer, RequestTrace } from './relay-trace';

/*
 * This file is the only one that imports OpenTelemetry, and it is itself imported (dynamically)
 * only when tracing is on. Spans carry names, models, ids, counts and statuses: never a prompt,
 * an answer, a key, a header's value or an upstream's error text (which may quote the prompt).
 */

// The GenAI conventions are still incubating: their names are written here rather than imported from the incubating entry point.
const GEN_AI_SYSTEM = 'gen_ai.system';
const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** The gateway's own attributes. */
const REQUEST_ID = 'gateway.request_id';
const INBOUND_FORMAT = 'gateway.inbound_format';
const STREAM = 'gateway.stream';
const CHANNEL_ID = 'gateway.channel_id';
const ATTEMPT = 'gateway.attempt';
const ATTEMPTS = 'gateway.attempts';

const TRACER_NAME = 'ai-gateway';

/** Started tracing: the relay's tracer, and the SDK's shutdown (flushes the spans not yet exported). */
export interface StartedTracing {
  tracer: RelayTracer;
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK from the OTEL_* variables (exporter, protocol, endpoint, headers,
 * sampler, propagators, batch delays) with traces only: no metrics or logs exporter (Prometheus
 * serves the metrics) and no auto-instrumentation (it would cost on every request and trace the
 * database).
 */
export function startOtelTracing(version: string): StartedTracing {
  const sdk = startNodeSdk({ metricReaders: [], logRecordProcessors: [], instrumentations: [], resourceAttributes: serviceAttributes(version) });
  // The SDK's own messages (a collector that does not answer) through the gateway's logger, so LOG_FORMAT=json stays JSON.
  diag.setLogger(nestDiagLogger(), { logLevel: diagLevel(process.env.OTEL_LOG_LEVEL), suppressOverrideMessage: true });
  return { tracer: new OtelRelayTracer(trace.getTracer(TRACER_NAME, version)), shutdown: () => sdk.shutdown() };
}

/** service.name `ai-gateway` and service.version, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name them (resourceAttributes would win over both). */
function serviceAttributes(version: string): Attributes {
  const fromEnv = process.env.OTEL_RESOURCE_ATTRIBUTES ?? '';
  const attributes: Attributes = {};
  if (!process.env.OTEL_SERVICE_NAME?.trim() && !fromEnv.includes(`${ATTR_SERVICE_NAME}=`)) attributes[ATTR_SERVICE_NAME] = TRACER_NAME;
  if (!fromEnv.includes(`${ATTR_SERVICE_VERSION}=`)) attributes[ATTR_SERVICE_VERSION] = version;
  return attributes;
}

const DIAG_LEVELS: Readonly<Record<string, DiagLogLevel>> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

/** OTEL_LOG_LEVEL, as the SDK reads it (info by default). */
function diagLevel(raw: string | undefined): DiagLogLevel {
  return DIAG_LEVELS[raw?.trim().toLowerCase() ?? ''] ?? DiagLogLevel.INFO;
}

/**
 * The SDK's messages as the gateway's log lines, without a request id: an export runs off a
 * timer that the request which ended the first span of a batch happened to start.
 */
function nestDiagLogger(): DiagLogger {
  const logger = new Logger('OpenTelemetry');
  const write = (level: 'error' | 'warn' | 'log' | 'debug' | 'verbose') => (message: string, ...args: unknown[]) => withoutRequestId(() => logger[level]([describeDiagMessage(message), ...args.map(describeDiagArgument)].join(' ')));
  return { error: write('error'), warn: write('warn'), info: write('log'), debug: write('debug'), verbose: write('verbose') };
}

/** The SDK's error handler logs a failed export as the error's JSON (stack included): its message is enough. */
function describeDiagMessage(message: string): string {
  if (!message.startsWith('{')) return message;
  try {
    return describeDiagArgument(JSON.parse(message));
  } catch {
    return message;
  }
}

/** An error (or the plain object the exporters make of one) by its message; no stack. */
function describeDiagArgument(argument: unknown): string {
  if (typeof argument === 'string') return argument;
  const message = (argument as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  return JSON.stringify(argument) ?? String(argument);
}

class OtelRelayTracer implements RelayTracer {
  constructor(private readonly tracer: Tracer) {}

  startRequest(request: IncomingMessage, route: RelayRoute, requestId: string): RequestTrace {
    return new OtelRequestTrace(this.tracer, request, route, requestId);
  }

  traceApiRequest(request: IncomingMessage, response: ServerResponse, requestId: string): void {
    const method = request.method ?? 'GET';
    const span = this.tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [REQUEST_ID]: requestId } }, incomingContext(request));
    response.once('close', () => {
      // Express's matched route (`/api/channel/:id`): bounded, and never carries the ids or the query.
      const routePath = (request as IncomingMessage & { route?: { path?: unknown } }).route?.path;
      if (typeof routePath === 'string') {
        span.setAttribute(ATTR_HTTP_ROUTE, routePath);
        span.updateName(`${method} ${routePath}`);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  }
}

class OtelRequestTrace implements RequestTrace {
  private readonly span: Span;
  /** The request span as the parent of the attempts (not the client's context: its baggage stays here). */
  private readonly attemptParent: Context;
  private readonly operation: string;
  private attempts = 0;
  private deliveredAt = 0;

  constructor(
    private readonly tracer: Tracer,
    request: IncomingMessage,
    route: RelayRoute,
    requestId: string,
  ) {
    this.operation = genAiOperation(route.spec.endpoint);
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const attributes: Attributes = {
      [GEN_AI_OPERATION_NAME]: this.operation,
      [ATTR_HTTP_REQUEST_METHOD]: request.method ?? 'POST',
      // The path only: Gemini clients may send their key as ?key=.
      [ATTR_URL_PATH]: query < 0 ? url : url.slice(0, query),
      [REQUEST_ID]: requestId,
      [INBOUND_FORMAT]: route.inbound.wire,
    };
    this.span = tracer.startSpan(this.operation, { kind: SpanKind.SERVER, attributes }, incomingContext(request));
    this.attemptParent = trace.setSpan(ROOT_CONTEXT, this.span);
  }

  prepared(model: string, stream: boolean): void {
    this.span.setAttributes({ [GEN_AI_REQUEST_MODEL]: model, [STREAM]: stream });
    this.span.updateName(`${this.operation} ${model}`);
  }

  attempt(channel: RelayChannel, attempt: number): AttemptTrace {
    this.attempts = attempt;
    return new OtelAttemptTrace(this.tracer, this.attemptParent, this.operation, channel, attempt);
  }

  delivered(delivery: Delivery): void {
    this.deliveredAt = performance.now();
    this.span.setAttributes({
      [GEN_AI_SYSTEM]: genAiSystem(delivery.channel.type),
      [GEN_AI_RESPONSE_MODEL]: delivery.upstreamModel,
      [CHANNEL_ID]: delivery.channel.id,
      [ATTEMPTS]: this.attempts,
      [ATTR_HTTP_RESPONSE_STATUS_CODE]: 200,
    });
  }

  finish(usage?: BilledUsage): void {
    if (usage) this.span.setAttributes({ [GEN_AI_USAGE_INPUT_TOKENS]: usage.promptTokens, [GEN_AI_USAGE_OUTPUT_TOKENS]: usage.completionTokens });
    // The gateway's own token count may finish after the answer did: the span still ends when the answer did.
    this.span.end(this.deliveredAt || undefined);
  }

  failed(error: RelayError, model: string | undefined): void {
    if (model !== undefined) this.prepared(model, false);
    this.span.setAttributes({ [ATTR_HTTP_RESPONSE_STATUS_CODE]: error.status, [ATTR_ERROR_TYPE]: error.code, [ATTEMPTS]: this.attempts });
    // The code, never the message: an upstream's error text may quote the prompt.
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
    this.span.end();
  }
}

class OtelAttemptTrace implements AttemptTrace {
  private readonly span: Span;

  constructor(
    tracer: Tracer,
    parent: Context,
    private readonly operation: string,
    channel: RelayChannel,
    attempt: number,
  ) {
    const attributes: Attributes = {
      [GEN_AI_SYSTEM]: genAiSystem(channel.type),
      [GEN_AI_OPERATION_NAME]: operation,
      [CHANNEL_ID]: channel.id,
      [ATTEMPT]: attempt,
    };
    this.span = tracer.startSpan(operation, { kind: SpanKind.CLIENT, attributes }, parent);
  }

  sending(upstreamModel: string, headers: Record<string, string>): void {
    this.span.setAttribute(GEN_AI_REQUEST_MODEL, upstreamModel);
    this.span.updateName(`${this.operation} ${upstreamModel}`);
    // traceparent (and tracestate) of this attempt, through the configured propagators; nothing of the client's baggage.
    propagation.inject(trace.setSpan(ROOT_CONTEXT, this.span), headers);
  }

  answered(status: number): void {
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  }

  end(result: AttemptResult): void {
    if (result.ok) {
      this.span.setAttribute(GEN_AI_RESPONSE_MODEL, result.delivery.upstreamModel);
      const usage = result.delivery.usage;
      if (usage) this.span.setAttributes({ [GEN_AI_USAGE_INPUT_TOKENS]: usage.promptTokens, [GEN_AI_USAGE_OUTPUT_TOKENS]: usage.completionTokens });
    } else {
      const errorType = 'refused' in result ? String(result.refused.status) : result.error.code;
      this.span.setAttribute(ATTR_ERROR_TYPE, errorType);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
    }
    this.span.end();
  }
}

/** The client's trace context (`traceparent`, `tracestate`, through the configured propagators), or none. */
function incomingContext(request: IncomingMessage): Context {
  return propagation.extract(ROOT_CONTEXT, request.headers);
}
