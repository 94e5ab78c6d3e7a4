import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { RelayService } from './relay.service';
import { RelaySocketsService } from './websocket/relay-sockets.service';

/** Puts the relay on Node's server for /v1, /v1beta (Gemini), /pg and /dashboard/billing, ahead of Express and Nest, and takes their WebSocket upgrades. */
@Injectable()
export class RelayHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = ['/v1', '/v1beta', '/pg', '/dashboard/billing'];

  constructor(
    private readonly rawRoutes: RawRoutes,
    private readonly relay: RelayService,
    private readonly sockets: RelaySocketsService,
  ) {}

  onModuleInit(): void {
    this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    void this.relay.handle(request, response);
  }

  /** WebSockets on /v1/responses and /v1/realtime. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.upgrade(request, socket, head);
  }
}
