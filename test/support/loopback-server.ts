import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A mock server on an ephemeral loopback port; subclasses answer each request in `serve`. */
export abstract class LoopbackServer {
  url = '';
  protected server?: http.Server;

  protected abstract serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> | void;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
