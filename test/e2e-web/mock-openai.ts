import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The models the mock lists on /v1/models. */
export const MOCK_MODELS = ['gpt-4o-mini', 'mock-small'];
/** Usage the mock reports for every chat completion, so the expected charge is known. */
export const MOCK_USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
/** The streamed reply: Markdown, plus HTML that must never run in the console. */
export const MOCK_STREAM_PARTS = ['Hello ', 'from the **mock** ', 'upstream! ', '<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>'];
export const MOCK_TEXT = 'Hello from the mock upstream!';

/**
 * A tiny OpenAI wire-format server on loopback: GET /v1/models and POST /v1/chat/completions,
 * streamed as server-sent events (slowly, so a client sees the reply grow) when asked.
 */
export class MockOpenAi {
  url = '';
  chatCalls = 0;
  /** Keys answered with a 401, as OpenAI answers a revoked key. */
  readonly revokedKeys = new Set<string>();
  private server?: http.Server;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    const path = (req.url ?? '').split('?')[0];

    if (req.method === 'GET' && path === '/v1/models') {
      return json(res, 200, { object: 'list', data: MOCK_MODELS.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'mock' })) });
    }
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (this.revokedKeys.has(key)) return json(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      this.chatCalls += 1;
      const model = String(body.model ?? 'gpt-4o-mini');
      const id = `chatcmpl-mock-${this.chatCalls}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        return json(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: MOCK_TEXT }, finish_reason: 'stop' }],
          usage: MOCK_USAGE,
        });
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      for (const part of MOCK_STREAM_PARTS) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: { content: part }, finish_reason: null }] });
      }
      send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      const options = body.stream_options as { include_usage?: boolean } | undefined;
      if (options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: MOCK_USAGE });
      res.end('data: [DONE]\n\n');
      return;
    }
    json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
  }
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
