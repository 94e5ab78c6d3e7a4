import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { MidjourneyRelayService } from './midjourney/midjourney-relay.service';
import { SunoRelayService } from './suno/suno-relay.service';

/** Puts the task relays on Node's server, beside the OpenAI relay: /mj, /{mode}/mj and /suno. */
@Injectable()
export class TaskRelayHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = ['/mj', '/fast/mj', '/turbo/mj', '/relax/mj', '/suno'];

  constructor(
    private readonly rawRoutes: RawRoutes,
    private readonly midjourney: MidjourneyRelayService,
    private readonly suno: SunoRelayService,
  ) {}

  onModuleInit(): void {
    this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = (query < 0 ? url : url.slice(0, query)).replace(/\/+$/, '');
    if (path.startsWith('/suno')) void this.suno.handle(request, response, path);
    else void this.midjourney.handle(request, response, path);
  }
}
