import http from 'node:http';
import { LoopbackServer } from './loopback-server';

/** An OTLP/JSON attribute value (AnyValue); int64 values may come as strings. */
export interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

/** One exported span, as OTLP/JSON carries it (ids in hex). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number; message?: string };
}

interface ExportTraceServiceRequest {
  resourceSpans?: Array<{ resource?: { attributes?: Array<{ key: string; value: OtlpValue }> }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

/** An OTLP/HTTP trace receiver speaking JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json): keeps every POST /v1/traces. */
export class OtlpReceiver extends LoopbackServer {
  /** The bodies as they came, to search for what must never be exported. */
  readonly bodies: string[] = [];
  readonly requests: ExportTraceServiceRequest[] = [];

  spans(): OtlpSpan[] {
    return this.requests.flatMap((request) => (request.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])));
  }

  /** The resource attributes of the exports (the gateway's service.name, version, …). */
  resourceAttributes(): Record<string, unknown> {
    const resource = this.requests[0]?.resourceSpans?.[0]?.resource;
    return attributesOf(resource?.attributes);
  }

  protected async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
      res.writeHead(404).end();
      return;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    this.bodies.push(text);
    this.requests.push(JSON.parse(text) as ExportTraceServiceRequest);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }
}

/** A span's (or resource's) attributes as a plain object, numbers as numbers. */
export function attributesOf(attributes: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    result[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue;
  }
  return result;
}
