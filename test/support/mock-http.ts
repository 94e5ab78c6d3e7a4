import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockHttpRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The body as sent; form and JSON bodies are also parsed into `form`. */
  body: string;
  form: Record<string, string>;
}

export type MockHttpReply = { status?: number; json: unknown } | { status: number; text: string };

/** A loopback HTTP server answering each request through `route`; every request is kept in `requests`. */
export interface MockHttp {
  url: string;
  requests: MockHttpRequest[];
  stop(): Promise<void>;
}

export async function startMockHttp(route: (request: MockHttpRequest) => MockHttpReply): Promise<MockHttp> {
  const requests: MockHttpRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://mock');
      const body = Buffer.concat(chunks).toString('utf8');
      const form = parseBody(body, String(req.headers['content-type'] ?? ''));
      const request: MockHttpRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, form };
      requests.push(request);
      const reply = route(request);
      if ('json' in reply) {
        res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.json));
      } else {
        res.writeHead(reply.status, { 'Content-Type': 'text/plain' });
        res.end(reply.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseBody(body: string, contentType: string): Record<string, string> {
  if (!body) return {};
  if (contentType.includes('application/json')) return JSON.parse(body) as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(body));
}
