import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule } from './app.module';
import { createAppLogger } from './common/logging/app-logger';
import { REQUEST_ID_HEADER, withRequestId } from './common/logging/request-context';
import { definitionOf, OPTION_KEYS } from './modules/options/option-definitions';
import { AppConfig } from './config/app-config';
import { createValidationPipe } from './common/http/validation';
import { hopTrust } from './common/http/client-ip';
import { refuseDeepJson } from './common/http/json-depth';
import { RawRoutes } from './http/raw-routes';
import { jsonBodiesOnly } from './http/json-only';
import { spaFallback } from './http/spa-fallback';
import { globalApiRateLimit } from './http/global-rate-limit';
import { RateLimiterService } from './common/rate-limit/rate-limiter.service';
import { GatewayMetrics } from './modules/metrics/gateway-metrics';
import { HealthService } from './modules/health/health.service';
import { GatewayTracing } from './modules/tracing/gateway-tracing';
import { OpenApiDocumentService } from './modules/openapi/openapi-document.service';
import { RelaySocketsService } from './modules/relay/websocket/relay-sockets.service';

/** Payment webhooks whose signature covers the exact bytes: their raw body is kept as `request.rawBody`. */
const SIGNED_BODY_PATHS = ['/api/user/stripe/webhook'];
/** Callbacks posted as forms (payment providers, the SAML IdP's HTTP-POST binding); every other /api body must be JSON. */
const FORM_BODY_PATHS = ['/api/user/epay/notify', '/api/saml/acs'];

function refuseDeepJsonKeepingSignedBodies(request: IncomingMessage, response: unknown, body: Buffer): void {
  refuseDeepJson(request, response, body);
  if (SIGNED_BODY_PATHS.some((path) => request.url?.startsWith(path))) (request as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
}

export interface GatewayApp {
  app: NestExpressApplication;
  /** Node's server: raw routes (the relay) first, everything else through Express and Nest. */
  server: http.Server;
  /**
   * Answers not ready on /readyz at once and, after `delayMs` (time for load balancers to
   * notice), stops accepting; lets requests in flight (streams included) finish for up to
   * `graceMs`, cuts what is left, then closes the modules: settlement and log batches are
   * flushed before the database connection closes.
   */
  close(graceMs?: number, delayMs?: number): Promise<void>;
}

const IDLE_SWEEP_MS = 100;

/** Resolves once every connection has ended, or after `graceMs`, whichever comes first; then cuts the rest. */
function drainConnections(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let sweeper: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(sweeper);
      clearTimeout(deadline);
      server.closeAllConnections();
      resolve();
    };
    server.close(finish);
    server.closeIdleConnections();
    if (graceMs <= 0) return finish();
    // A keep-alive connection turns idle when its last request ends: close it then, not at the deadline.
    sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    deadline = setTimeout(finish, graceMs);
  });
}

/** Settings marked secret: the JSON logger redacts them by name. */
const SECRET_SETTINGS = OPTION_KEYS.filter((key) => definitionOf(key).secret);

/**
 * Every /api request gets a request id, sent back as X-Request-Id and carried by the log
 * lines written while serving it (the relay makes its own), and a span when tracing is on.
 */
function apiRequestId(tracing: GatewayTracing) {
  return (request: IncomingMessage, response: http.ServerResponse, next: () => void): void => {
    const requestId = randomUUID();
    response.setHeader(REQUEST_ID_HEADER, requestId);
    // Read per request: the tracer is loaded while the app initialises, after this is installed.
    tracing.tracer?.traceApiRequest(request, response, requestId);
    withRequestId(requestId, next);
  };
}

/**
 * Builds the whole gateway; used by main.ts, the tests and the benchmark alike. `textLogLevels`
 * overrides LOG_LEVEL for the text format (tests and benchmarks keep quiet).
 */
export async function createGatewayApp(config: AppConfig, textLogLevels?: LogLevel[]): Promise<GatewayApp> {
  const logger = createAppLogger(config, SECRET_SETTINGS, textLogLevels);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, logger });
  // Express calls this with (address, hop) and takes the right-most untrusted address as request.ip.
  app.set('trust proxy', hopTrust(config.trustProxy));
  app.disable('x-powered-by');
  app.use('/api', jsonBodiesOnly(FORM_BODY_PATHS));
  app.useBodyParser('json', { limit: config.relay.maxRequestBodyBytes, verify: refuseDeepJsonKeepingSignedBodies });
  app.useBodyParser('urlencoded', { limit: config.relay.maxRequestBodyBytes, extended: true });
  // After the body parsers: their 'end' callbacks run in the socket's context, which would lose the id.
  app.use('/api', apiRequestId(app.get(GatewayTracing)));
  app.useGlobalPipes(createValidationPipe());
  if (config.globalApiRateLimit.max > 0) {
    app.use('/api', globalApiRateLimit(app.get(RateLimiterService), app.get(GatewayMetrics), config.globalApiRateLimit.max, config.globalApiRateLimit.windowSeconds));
  }
  if (existsSync(config.webDistDir)) {
    app.useStaticAssets(config.webDistDir, { index: false, maxAge: '1h' });
    app.use(spaFallback(config.webDistDir));
  }
  await app.init();
  // The document is scanned from the running app's modules, on its first request.
  app.get(OpenApiDocumentService).attach(app);

  const expressHandler = app.getHttpAdapter().getInstance() as http.RequestListener;
  const rawRoutes = app.get(RawRoutes);
  const server = http.createServer((request, response) => {
    const route = rawRoutes.match(request.url);
    if (route) route.handle(request, response);
    else expressHandler(request, response);
  });
  server.keepAliveTimeout = 65_000;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const route = rawRoutes.match(request.url);
    if (route?.upgrade) route.upgrade(request, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });

  return {
    app,
    server,
    async close(graceMs = 0, delayMs = 0) {
      app.get(HealthService).beginShutdown();
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      // Upgraded sockets are no longer the HTTP server's to drain: their sessions end themselves.
      app.get(RelaySocketsService).beginShutdown();
      await drainConnections(server, graceMs);
      await app.close();
    },
  };
}
