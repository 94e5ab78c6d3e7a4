import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { HealthService } from './health.service';

const LIVENESS_BODY = JSON.stringify({ status: 'ok' });

/**
 * GET /healthz (liveness: the process answers; no I/O) and GET /readyz (readiness: 200 when
 * the gateway can serve, 503 otherwise), straight off Node's server: no session, no envelope,
 * no rate limit, so a probe costs next to nothing.
 */
@Injectable()
export class HealthHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = ['/healthz', '/readyz'];
  private readonly logger = new Logger(HealthHttpHandler.name);
  private wasReady = true;

  constructor(
    private readonly rawRoutes: RawRoutes,
    private readonly health: HealthService,
  ) {}

  onModuleInit(): void {
    this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, request, 405, JSON.stringify({ status: 'method_not_allowed' }));
    if (request.url?.startsWith('/healthz')) return send(response, request, 200, LIVENESS_BODY);
    this.health.readiness().then((readiness) => {
      this.noteChange(readiness.ready, readiness.failure);
      send(response, request, readiness.ready ? 200 : 503, JSON.stringify({ status: readiness.status, checks: readiness.checks }));
    });
  }

  /** One log line when readiness changes, not one per probe. */
  private noteChange(ready: boolean, failure: string | undefined): void {
    if (ready === this.wasReady) return;
    this.wasReady = ready;
    if (ready) this.logger.log('ready again');
    else this.logger.warn(`not ready${failure ? `: ${failure}` : ''}`);
  }
}

function send(response: ServerResponse, request: IncomingMessage, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  response.end(request.method === 'HEAD' ? undefined : body);
}
