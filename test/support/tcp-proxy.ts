import net from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server (the test MariaDB), which a test can cut
 * (every open connection dropped, new ones closed at once) and restore: an outage of the
 * database as the gateway sees it, without touching the shared server.
 */
export class TcpProxy {
  port = 0;
  private server?: net.Server;
  private readonly open = new Set<net.Socket>();
  private cut = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** Drops every connection and refuses new ones until restore(). */
  cutOff(): void {
    this.cut = true;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  restore(): void {
    this.cut = false;
  }

  async stop(): Promise<void> {
    this.cutOff();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private accept(client: net.Socket): void {
    if (this.cut) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.open.delete(from);
        to.destroy();
      });
    }
  }
}
