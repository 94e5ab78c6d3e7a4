import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createGatewayApp } from './app.factory';
import { ConfigError, loadAppConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const logger = new Logger('Bootstrap');
  let config;
  try {
    config = loadAppConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const gateway = await createGatewayApp(config);
  gateway.server.listen(config.port, () => {
    const database = { sqlite: `SQLite at ${config.database.sqlitePath}`, mysql: 'MySQL', postgres: 'PostgreSQL' }[config.database.type];
    const address = gateway.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.log(`gateway ${config.version} listening on http://localhost:${port} (${database}${config.redisUrl ? ', Redis' : ''})`);
  });
  // We own the signals (not Nest's enableShutdownHooks, which would close the modules under the streams still running).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      const delay = config.shutdownDelayMs > 0 ? `/readyz answers 503; new connections stop in ${config.shutdownDelayMs / 1000} s, then ` : 'no new connections; ';
      logger.log(`${signal} received: ${delay}waiting up to ${config.shutdownGraceMs / 1000} s for requests in flight`);
      gateway.close(config.shutdownGraceMs, config.shutdownDelayMs).then(
        () => {
          logger.log('shut down cleanly');
          process.exit(0);
        },
        (error: Error) => {
          logger.error(`shutdown failed: ${error.message}`);
          process.exit(1);
        },
      );
    });
  }
}

void bootstrap();
