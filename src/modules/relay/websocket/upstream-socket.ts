import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';

/** The upstream answered the upgrade with an HTTP status instead of switching protocols (404: it serves no WebSocket there). */
export class UpgradeRefusedError extends Error {
  constructor(readonly status: number) {
    super(`The upstream refused the WebSocket upgrade with ${status}`);
  }
}

/** One frame as the socket gave it. */
export interface SocketFrame {
  data: WebSocket.RawData;
  isBinary: boolean;
}

export interface UpstreamSocketOptions {
  headers: Record<string, string>;
  /** The outbound guard's lookup: the socket dials only addresses it has checked. */
  lookup: LookupFunction;
  handshakeTimeoutMs: number;
  maxPayloadBytes: number;
  /**
   * Keeps the frames that arrive before the caller listens (a Realtime upstream's
   * session.created may come with the handshake): the caller stops the collection and takes them.
   */
  early?: SocketFrame[];
}

/**
 * Opens a WebSocket to an upstream: resolves once it is open, rejects with UpgradeRefusedError
 * when the upstream answers the upgrade with a status, or with the connection's error.
 * Redirects are not followed (the key would travel to another host).
 */
export function openUpstreamSocket(url: URL, options: UpstreamSocketOptions): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      headers: options.headers,
      lookup: options.lookup,
      handshakeTimeout: options.handshakeTimeoutMs,
      maxPayload: options.maxPayloadBytes,
      perMessageDeflate: false,
      followRedirects: false,
    });
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(socket);
    };
    // A socket without an 'error' listener would throw its later errors at the process.
    socket.on('error', (error) => settle(error));
    const early = options.early;
    if (early) socket.on('message', (data, isBinary) => early.push({ data, isBinary }));
    socket.once('open', () => settle());
    socket.once('unexpected-response', (request, response) => {
      response.resume();
      request.destroy();
      settle(new UpgradeRefusedError(response.statusCode ?? 502));
    });
  });
}
