import net from 'node:net';
import { answerStatsRequests, type ReadyMessage } from './process-stats';

/** What the preload answers to 'outbound': the destinations it refused, in order. */
export interface OutboundMessage {
  kind: 'outbound';
  refused: string[];
}

/**
 * Loaded with `--require` into the Portkey gateway's process by `npm run bench:peers`, before
 * Portkey's own code runs, so the peer runs like the bench's own children and stays on this machine:
 * - every server it opens listens on 127.0.0.1 (Portkey's Node server binds all interfaces);
 * - every outbound TCP connection to anything but loopback is refused before DNS and recorded.
 *   The bench's one upstream is the mock on 127.0.0.1; nothing in Portkey's path for a call
 *   with `x-portkey-custom-host` dials out otherwise (its provider defaults, guardrail plugins
 *   and URL checks do), and the driver fails the run if anything was refused;
 * - streamed answers get headers Portkey can change (see fetchWithMutableStreamHeaders below);
 * - it answers the driver's 'stats' and 'outbound', and says 'ready' with the port once the
 *   server listens.
 */
const refused: string[] = [];

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare);
}

/** The host a `Socket.connect` call dials, or undefined for a local pipe. net.connect() hands over its arguments normalized, as one array. */
function destinationHost(args: unknown[]): string | undefined {
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { path?: string; host?: string };
    return options.path ? undefined : (options.host ?? 'localhost');
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) return typeof args[1] === 'string' ? args[1] : 'localhost';
  return undefined;
}

const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: unknown[]) => net.Socket;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
  const host = destinationHost(args);
  if (host !== undefined && !isLoopback(host)) {
    refused.push(host);
    process.nextTick(() => this.destroy(new Error(`bench:peers refused an outbound connection to ${host}`)));
    return this;
  }
  return connect.apply(this, args);
} as typeof net.Socket.prototype.connect;

let announced = false;
const listen = net.Server.prototype.listen as (this: net.Server, ...args: unknown[]) => net.Server;
net.Server.prototype.listen = function loopbackListen(this: net.Server, ...args: unknown[]): net.Server {
  const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as () => void) : undefined;
  const first = args[0];
  const port = Number(typeof first === 'object' && first !== null ? ((first as net.ListenOptions).port ?? 0) : (first ?? 0));
  this.once('listening', () => {
    if (announced) return;
    announced = true;
    const ready: ReadyMessage = { kind: 'ready', port: (this.address() as net.AddressInfo).port };
    process.send?.(ready);
  });
  return listen.call(this, { port, host: '127.0.0.1' }, callback);
} as typeof net.Server.prototype.listen;

/**
 * Portkey 1.15.2 with the @hono/node-server that its dependency range installs today (1.19)
 * answers every streamed call with a 500: it appends its own headers to the upstream fetch
 * answer's headers, which are immutable (Portkey-AI/gateway issues 1389 and 1550). Portkey's
 * proposed fix (pull request 1551) copies the streamed answer into a new Response first; this
 * does the same one step earlier, at the fetch, for streamed answers only, so Portkey's streams
 * are measured as they run once fixed (one Response and one Headers more per streamed call).
 */
const upstreamFetch = globalThis.fetch;
globalThis.fetch = async function fetchWithMutableStreamHeaders(...args: Parameters<typeof fetch>): Promise<Response> {
  const response = await upstreamFetch(...args);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
};

answerStatsRequests();
process.on('message', (message: unknown) => {
  if (message !== 'outbound') return;
  const reply: OutboundMessage = { kind: 'outbound', refused: [...refused] };
  process.send?.(reply);
});
