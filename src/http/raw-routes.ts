import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * A handler that takes whole path prefixes straight from Node's HTTP server, ahead of
 * Express and Nest. The relay lives here: its hot path must cost no more than a plain
 * Node proxy plus our own work.
 */
export interface RawHttpRoute {
  prefixes: string[];
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** A WebSocket upgrade under the prefixes; routes without it refuse upgrades. */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

@Injectable()
export class RawRoutes {
  private readonly routes: RawHttpRoute[] = [];

  register(route: RawHttpRoute): void {
    this.routes.push(route);
  }

  match(url: string | undefined): RawHttpRoute | undefined {
    if (!url) return undefined;
    for (const route of this.routes) {
      for (const prefix of route.prefixes) {
        if (url.startsWith(prefix) && (url.length === prefix.length || url[prefix.length] === '/' || url[prefix.length] === '?')) return route;
      }
    }
    return undefined;
  }
}
