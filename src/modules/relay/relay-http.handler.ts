import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { RelayService } from './relay.service';

/** Puts the relay on Node's server for /v1, /v1beta (Gemini), /pg and /dashboard/billing, ahead of Express and Nest. */
@Injectable()
export class RelayHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = ['/v1', '/v1beta', '/pg', '/dashboard/billing'];

  constructor(
    private readonly rawRoutes: RawRoutes,
    private readonly relay: RelayService,
  ) {}

  onModuleInit(): void {
    this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    void this.relay.handle(request, response);
  }
}
