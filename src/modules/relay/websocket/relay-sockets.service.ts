import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { withRequestId } from '../../../common/logging/request-context';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { RelayError } from '../relay-error';
import { RelayService } from '../relay.service';
import { TokenAuthService } from '../token-auth.service';
import { RealtimeSocketService } from './realtime-socket.service';
import { ResponsesSocketService } from './responses-socket.service';
import { GOING_AWAY, refuseUpgrade } from './socket-errors';

/** Browsers cannot set headers on a WebSocket: OpenAI's Realtime clients put the key in a subprotocol of this prefix. */
const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

/**
 * The relay's WebSocket upgrades: `/v1/responses` (Responses' WebSocket mode, as Codex uses
 * it) and `/v1/realtime` (OpenAI's Realtime API). The token is checked before the upgrade is
 * accepted, so a refused client gets the HTTP error an HTTP call would. Open sockets close when
 * the gateway shuts down.
 */
@Injectable()
export class RelaySocketsService implements OnApplicationShutdown {
  private readonly server: WebSocketServer;
  /** Once the gateway begins to shut down: no new socket, and Responses sockets close as soon as no response runs on them. */
  private draining = false;
  private readonly responseSessions = new Map<WebSocket, { busy(): boolean }>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly relay: RelayService,
    private readonly tokenAuth: TokenAuthService,
    private readonly responses: ResponsesSocketService,
    private readonly realtime: RealtimeSocketService,
  ) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: config.relay.maxRequestBodyBytes, perMessageDeflate: false, handleProtocols: chooseProtocol });
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const requestId = randomUUID();
    void withRequestId(requestId, () => this.accept(request, socket, head, requestId));
  }

  private async accept(request: IncomingMessage, socket: Duplex, head: Buffer, requestId: string): Promise<void> {
    // A socket that breaks before the upgrade is answered must not throw at the process.
    socket.on('error', () => socket.destroy());
    try {
      const path = (request.url ?? '/').split('?')[0].replace(/\/+$/, '');
      if (this.draining) throw new RelayError('service_unavailable', 'The gateway is shutting down; connect again', 503);
      keyFromProtocols(request);
      if (path === '/v1/responses') {
        await this.tokenAuth.authenticate(request);
        this.server.handleUpgrade(request, socket, head, (client) => this.serveResponses(client, request));
      } else if (path === '/v1/realtime') {
        const upstream = await this.realtime.open(request);
        if (!socket.writable) return void upstream.socket.close();
        this.server.handleUpgrade(request, socket, head, (client) => this.realtime.serve(client, request, upstream));
      } else {
        throw new RelayError('not_found', `No WebSocket endpoint at ${path}`, 404);
      }
    } catch (error) {
      refuseUpgrade(socket, this.relay.asRelayError(error, requestId), requestId);
    }
  }

  private serveResponses(client: WebSocket, request: IncomingMessage): void {
    const session = this.responses.serve(client, request, () => this.draining);
    this.responseSessions.set(client, session);
    client.once('close', () => this.responseSessions.delete(client));
  }

  /**
   * The gateway begins to shut down: new upgrades are refused, idle Responses sockets close now
   * (1001, as a server going away), busy ones after their response. Realtime sessions keep the
   * grace period; whatever is still open when the modules close is closed then.
   */
  beginShutdown(): void {
    this.draining = true;
    for (const [client, session] of this.responseSessions) if (!session.busy()) client.close(1001, GOING_AWAY);
  }

  onApplicationShutdown(): void {
    for (const client of this.server.clients) if (client.readyState === WebSocket.OPEN) client.close(1001, GOING_AWAY);
  }
}

/**
 * A key sent as `openai-insecure-api-key.sk-…` among the subprotocols becomes the request's
 * Authorization, unless it has one: the token is then checked as any other.
 */
function keyFromProtocols(request: IncomingMessage): void {
  if (request.headers.authorization) return;
  const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',');
  const keyed = offered.map((protocol) => protocol.trim()).find((protocol) => protocol.startsWith(KEY_PROTOCOL_PREFIX));
  if (keyed) request.headers.authorization = `Bearer ${keyed.slice(KEY_PROTOCOL_PREFIX.length)}`;
}

/** The subprotocol answered: `realtime` when offered, else any but the key's (never echoed back), else none. */
function chooseProtocol(protocols: Set<string>): string | false {
  if (protocols.has('realtime')) return 'realtime';
  for (const protocol of protocols) if (!protocol.startsWith(KEY_PROTOCOL_PREFIX)) return protocol;
  return false;
}
