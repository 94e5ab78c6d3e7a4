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
    const database = config.database.type === 'sqlite' ? `SQLite at ${config.database.sqlitePath}` : 'MySQL';
    logger.log(`gateway ${config.version} listening on http://localhost:${config.port} (${database}${config.redisUrl ? ', Redis' : ''})`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.log(`${signal} received, shutting down`);
      gateway.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

void bootstrap();
