import WebSocket from 'ws';

export type SocketEvent = Record<string, unknown> & { type?: string };

/**
 * A WebSocket client of the gateway, for tests: every text frame it receives is kept, parsed,
 * and a test waits for the frame it needs (never for a time).
 */
export class SocketClient {
  readonly events: SocketEvent[] = [];
  closed = false;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.events.push(JSON.parse(data.toString()) as SocketEvent);
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Opens a socket to the gateway; rejects with the HTTP status when the upgrade is refused. */
  static open(url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}): Promise<SocketClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
      ws.on('error', reject);
      ws.once('unexpected-response', (request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode, body }));
          request.destroy();
        });
      });
      ws.once('open', () => resolve(new SocketClient(ws)));
    });
  }

  send(message: object): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The events from index `from` up to the first that `last` accepts (that one included). */
  async until(last: (event: SocketEvent) => boolean, from = 0): Promise<SocketEvent[]> {
    for (;;) {
      const index = this.events.findIndex((event, position) => position >= from && last(event));
      if (index >= 0) return this.events.slice(from, index + 1);
      if (this.closed) throw new Error(`the socket closed before the event; got ${JSON.stringify(this.events.slice(from).map((event) => event.type))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Sends one response.create and answers its events, up to the one that ends it. */
  async respond(body: object): Promise<SocketEvent[]> {
    const from = this.events.length;
    this.send({ type: 'response.create', ...body });
    return this.until((event) => event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'error', from);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.ws.close();
    return new Promise((resolve) => this.ws.once('close', () => resolve()));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The gateway's WebSocket address of a path. */
export function socketUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}${path}`;
}
