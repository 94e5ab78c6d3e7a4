import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RawHttpRoute, RawRoutes } from '../../http/raw-routes';
import { MetricsExporter } from './metrics-exporter';

/**
 * GET /metrics, straight off Node's server: no session cookie, no envelope. With METRICS_TOKEN
 * set, the scraper sends `Authorization: Bearer <token>`. Registered only when metrics are on,
 * so otherwise the path is the console's like any other.
 */
@Injectable()
export class MetricsHttpHandler implements RawHttpRoute, OnModuleInit {
  readonly prefixes = ['/metrics'];
  private readonly logger = new Logger(MetricsHttpHandler.name);
  private readonly expected: Buffer | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rawRoutes: RawRoutes,
    private readonly exporter: MetricsExporter,
  ) {
    this.expected = config.metrics.token ? Buffer.from(`Bearer ${config.metrics.token}`) : null;
  }

  onModuleInit(): void {
    if (this.config.metrics.enabled) this.rawRoutes.register(this);
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'Use GET /metrics\n', { allow: 'GET, HEAD' });
    if (!this.authorized(request.headers.authorization)) return sendText(response, 401, 'A Bearer token (METRICS_TOKEN) is required\n', { 'www-authenticate': 'Bearer' });
    this.exporter.scrape().then(
      ({ text, contentType }) => sendText(response, 200, request.method === 'HEAD' ? '' : text, { 'content-type': contentType }),
      (error: Error) => {
        this.logger.error(`collecting metrics failed: ${error.message}`);
        sendText(response, 500, 'Collecting metrics failed\n');
      },
    );
  }

  private authorized(header: string | undefined): boolean {
    if (!this.expected) return true;
    const given = Buffer.from(header ?? '');
    return given.length === this.expected.length && timingSafeEqual(given, this.expected);
  }
}

function sendText(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
}
