import http from 'node:http';
import { LoopbackServer } from './loopback-server';

/** One request the mock received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: Buffer;
}

/** How the mock answers one request. */
export type MockReply =
  | { status: number; json: unknown; delayMs?: number }
  | { status?: number; sse: string[]; delayMs?: number; hangAfter?: boolean }
  | { status?: number; text: string | Buffer; contentType: string }
  | { destroy: true };

export type MockHandler = (request: ReceivedRequest) => MockReply | undefined | Promise<MockReply | undefined>;

export const MOCK_REPLY_TEXT = 'Hello from the mock upstream!';
export const MOCK_USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };

/**
 * An OpenAI (and Azure OpenAI) wire-format server on loopback. By default it answers chat,
 * completions, embeddings and model listing like OpenAI, streaming when asked; `handler`
 * overrides the answer per request. Every request is recorded.
 */
export class MockUpstream extends LoopbackServer {
  readonly requests: ReceivedRequest[] = [];
  handler?: MockHandler;
  /** Set when a streaming client went away before the stream ended. */
  streamsAborted = 0;

  reset(): void {
    this.requests.length = 0;
    this.handler = undefined;
    this.streamsAborted = 0;
  }

  protected async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    let body: Record<string, unknown> = {};
    if (String(req.headers['content-type']).includes('json') && raw.length) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const received: ReceivedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, raw };
    this.requests.push(received);
    const reply = (await this.handler?.(received)) ?? defaultReply(received);
    await this.send(res, reply);
  }

  private async send(res: http.ServerResponse, reply: MockReply): Promise<void> {
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    if ('json' in reply) {
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      const text = JSON.stringify(reply.json);
      res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    if ('text' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType });
      res.end(reply.text);
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        this.streamsAborted++;
      }
    });
    for (const event of reply.sse) {
      if (closed) return;
      res.write(`data: ${event}\n\n`);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    }
    if (reply.hangAfter) return;
    if (!closed) res.end();
  }
}

/** Stream events of a chat answer: one chunk per word, then (when asked) a usage chunk, then [DONE]. */
export function chatStreamEvents(model: string, text: string, usage: object | null): string[] {
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model };
  const words = text.split(/(?<= )/);
  const events = [JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })];
  for (const word of words) events.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: word }, finish_reason: null }] }));
  events.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
  if (usage) events.push(JSON.stringify({ ...base, choices: [], usage }));
  events.push('[DONE]');
  return events;
}

export function chatCompletion(model: string, text: string, usage: object | undefined = MOCK_USAGE): object {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1700000000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }],
    ...(usage ? { usage } : {}),
  };
}

function defaultReply(request: ReceivedRequest): MockReply {
  const path = request.path.split('?')[0];
  const model = String(request.body.model ?? 'unknown');
  if (path.endsWith('/models')) {
    return { status: 200, json: { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model' }, { id: 'gpt-4o', object: 'model' }] } };
  }
  if (path.endsWith('/chat/completions')) {
    if (request.body.stream === true) {
      const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      return { sse: chatStreamEvents(model, MOCK_REPLY_TEXT, includeUsage ? MOCK_USAGE : null) };
    }
    return { status: 200, json: chatCompletion(model, MOCK_REPLY_TEXT) };
  }
  if (path.endsWith('/completions')) {
    return { status: 200, json: { id: 'cmpl-mock', object: 'text_completion', created: 1700000000, model, choices: [{ index: 0, text: MOCK_REPLY_TEXT, finish_reason: 'stop' }], usage: MOCK_USAGE } };
  }
  if (path.endsWith('/embeddings')) {
    return { status: 200, json: { object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3] }], usage: { prompt_tokens: 8, total_tokens: 8 } } };
  }
  if (path.endsWith('/moderations')) {
    return { status: 200, json: { id: 'modr-mock', model, results: [{ flagged: false, categories: {}, category_scores: {} }] } };
  }
  return { status: 404, json: { error: { message: `mock has no ${path}`, type: 'invalid_request_error', code: null } } };
}
