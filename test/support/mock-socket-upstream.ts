import type http from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { MockUpstream } from './mock-upstream';

/** One upgrade the mock took (or refused). */
export interface ReceivedUpgrade {
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** What the Responses socket mock reports per response: 20 input and 10 output tokens, as its HTTP twin in relay-responses.test.ts. */
export const SOCKET_RESPONSES_USAGE = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 };
export const SOCKET_REPLY_TEXT = 'From the Responses socket.';

/**
 * Realtime usage of each response: 40 text and 60 audio input tokens, 10 text and 40 audio
 * output tokens, in the Realtime API's spelling (input_token_details / output_token_details).
 */
export const REALTIME_USAGE = {
  total_tokens: 150,
  input_tokens: 100,
  output_tokens: 50,
  input_token_details: { cached_tokens: 0, text_tokens: 40, audio_tokens: 60 },
  output_token_details: { text_tokens: 10, audio_tokens: 40 },
};
export const REALTIME_TRANSCRIPT = 'Hello from the realtime mock.';

/**
 * An OpenAI upstream that also speaks WebSocket, on loopback: Responses' WebSocket mode at
 * /v1/responses (`response.create` in, the typed events out, one per frame) and the Realtime
 * API at /v1/realtime (OpenAI) and /openai/realtime (Azure: `api-key`, `api-version`,
 * `deployment`). HTTP requests are answered as MockUpstream answers them.
 *
 * Markers in the request steer a response: a Responses input naming `DROP` gets its first
 * events and then the connection cut; `HANG` gets its first events and nothing more. A Realtime
 * response.create whose instructions say `HANG` gets response.created and a transcript delta
 * only; `DROP` gets those, then the connection cut.
 */
export class MockSocketUpstream extends MockUpstream {
  readonly upgrades: ReceivedUpgrade[] = [];
  /** Every frame the sockets received, parsed. */
  readonly frames: Array<Record<string, unknown>> = [];
  /** Answer Responses upgrades with 404, as an upstream without WebSocket mode does. */
  refuseResponsesUpgrade = false;
  /** Answer every upgrade with this status (an overloaded upstream: 503), when set. */
  refuseUpgradesWith?: number;
  /** Answers a response.create with these events instead of the fixed ones (a tool loop). */
  respond?: (frame: Record<string, unknown>) => object[] | undefined;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private responseCount = 0;

  override async start(): Promise<this> {
    await super.start();
    this.server!.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
    return this;
  }

  override async stop(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate();
    await super.stop();
  }

  private upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = request.url ?? '/';
    this.upgrades.push({ path, headers: request.headers });
    const pathname = path.split('?')[0];
    const refuse = (status: number): void => void socket.end(`HTTP/1.1 ${status} Refused\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    if (this.refuseUpgradesWith) return refuse(this.refuseUpgradesWith);
    if (pathname === '/v1/responses') {
      if (this.refuseResponsesUpgrade) return refuse(404);
      if (request.headers.authorization !== 'Bearer sk-upstream-secret-key') return refuse(401);
      return this.sockets.handleUpgrade(request, socket, head, (ws) => this.serveResponses(ws));
    }
    if (pathname === '/v1/realtime') {
      if (request.headers.authorization !== 'Bearer sk-upstream-secret-key') return refuse(401);
      return this.sockets.handleUpgrade(request, socket, head, (ws) => this.serveRealtime(ws));
    }
    if (pathname === '/openai/realtime') {
      const query = new URL(path, 'http://mock').searchParams;
      if (request.headers['api-key'] !== 'azure-upstream-key' || !query.get('api-version') || !query.get('deployment')) return refuse(401);
      return this.sockets.handleUpgrade(request, socket, head, (ws) => this.serveRealtime(ws));
    }
    refuse(404);
  }

  private record(data: WebSocket.RawData): Record<string, unknown> {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    this.frames.push(frame);
    return frame;
  }

  private serveResponses(ws: WebSocket): void {
    ws.on('message', (data) => {
      const frame = this.record(data);
      if (frame.type !== 'response.create') return ws.send(JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', message: 'expected response.create' } }));
      const own = this.respond?.(frame);
      if (own) return own.forEach((event) => ws.send(JSON.stringify(event)));
      const id = `resp_ws_${++this.responseCount}`;
      const response = { id, object: 'response', created_at: 1700000000, status: 'completed', model: frame.model, output: [{ type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: SOCKET_REPLY_TEXT, annotations: [] }] }], usage: SOCKET_RESPONSES_USAGE };
      const events = [
        { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } },
        { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...response.output[0], status: 'in_progress', content: [] } },
        { type: 'response.output_text.delta', sequence_number: 2, item_id: `msg_${id}`, output_index: 0, content_index: 0, delta: SOCKET_REPLY_TEXT },
        { type: 'response.output_text.done', sequence_number: 3, item_id: `msg_${id}`, output_index: 0, content_index: 0, text: SOCKET_REPLY_TEXT },
        { type: 'response.output_item.done', sequence_number: 4, output_index: 0, item: response.output[0] },
        { type: 'response.completed', sequence_number: 5, response },
      ];
      const input = JSON.stringify(frame.input ?? '');
      const cut = input.includes('DROP') || input.includes('HANG');
      for (const event of cut ? events.slice(0, 3) : events) ws.send(JSON.stringify(event));
      if (input.includes('DROP')) ws.terminate();
    });
  }

  private serveRealtime(ws: WebSocket): void {
    ws.send(JSON.stringify({ type: 'session.created', event_id: 'event_1', session: { id: 'sess_mock', object: 'realtime.session' } }));
    ws.on('message', (data) => {
      const frame = this.record(data);
      if (frame.type !== 'response.create') return;
      const id = `resp_rt_${++this.responseCount}`;
      const instructions = (frame.response as { instructions?: string } | undefined)?.instructions;
      ws.send(JSON.stringify({ type: 'response.created', event_id: `event_${id}_1`, response: { id, object: 'realtime.response', status: 'in_progress', output: [], usage: null } }));
      ws.send(JSON.stringify({ type: 'response.audio.delta', event_id: `event_${id}_2`, response_id: id, item_id: `item_${id}`, output_index: 0, content_index: 0, delta: Buffer.from('pcm16 audio').toString('base64') }));
      ws.send(JSON.stringify({ type: 'response.audio_transcript.delta', event_id: `event_${id}_3`, response_id: id, item_id: `item_${id}`, output_index: 0, content_index: 0, delta: REALTIME_TRANSCRIPT }));
      if (instructions === 'DROP') return ws.terminate();
      if (instructions === 'HANG') return;
      ws.send(JSON.stringify({ type: 'response.done', event_id: `event_${id}_4`, response: { id, object: 'realtime.response', status: 'completed', output: [], usage: REALTIME_USAGE } }));
    });
  }
}
