import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { AppModule } from './app.module';
import { AppLogger } from './common/app-logger';
import { AppConfig } from './config/app-config';
import { createValidationPipe } from './common/http/validation';
import { hopTrust } from './common/http/client-ip';
import { refuseDeepJson } from './common/http/json-depth';
import { RawRoutes } from './http/raw-routes';
import { spaFallback } from './http/spa-fallback';
import { globalApiRateLimit } from './http/global-rate-limit';
import { RateLimiterService } from './common/rate-limit/rate-limiter.service';

export interface GatewayApp {
  app: NestExpressApplication;
  /** Node's server: raw routes (the relay) first, everything else through Express and Nest. */
  server: http.Server;
  close(): Promise<void>;
}

/** Builds the whole gateway; used by main.ts, the tests and the benchmark alike. */
export async function createGatewayApp(config: AppConfig, logLevels: LogLevel[] = ['log', 'warn', 'error']): Promise<GatewayApp> {
  const logger = new AppLogger();
  logger.setLogLevels(logLevels);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, logger });
  // Express calls this with (address, hop) and takes the right-most untrusted address as request.ip.
  app.set('trust proxy', hopTrust(config.trustProxy));
  app.disable('x-powered-by');
  app.useBodyParser('json', { limit: config.relay.maxRequestBodyBytes, verify: refuseDeepJson });
  app.useBodyParser('urlencoded', { limit: config.relay.maxRequestBodyBytes, extended: true });
  app.useGlobalPipes(createValidationPipe());
  if (config.globalApiRateLimit.max > 0) {
    app.use('/api', globalApiRateLimit(app.get(RateLimiterService), config.globalApiRateLimit.max, config.globalApiRateLimit.windowSeconds));
  }
  if (existsSync(config.webDistDir)) {
    app.useStaticAssets(config.webDistDir, { index: false, maxAge: '1h' });
    app.use(spaFallback(config.webDistDir));
  }
  app.enableShutdownHooks();
  await app.init();

  const expressHandler = app.getHttpAdapter().getInstance() as http.RequestListener;
  const rawRoutes = app.get(RawRoutes);
  const server = http.createServer((request, response) => {
    const route = rawRoutes.match(request.url);
    if (route) route.handle(request, response);
    else expressHandler(request, response);
  });
  server.keepAliveTimeout = 65_000;

  return {
    app,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
    },
  };
}
