import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** The optional Redis connection (REDIS_CONN_STRING). Everything works without it on one instance. */
@Injectable()
export class RedisService implements OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis | null;
  private subscriberClient: Redis | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = config.redisUrl ? this.connect('main') : null;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** A second connection, because a subscribed Redis connection cannot run other commands. */
  get subscriber(): Redis | null {
    if (!this.config.redisUrl) return null;
    this.subscriberClient ??= this.connect('subscriber');
    return this.subscriberClient;
  }

  private connect(role: string): Redis {
    const client = new Redis(this.config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    client.on('error', (error) => this.logger.warn(`redis ${role} connection: ${error.message}`));
    return client;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.client, this.subscriberClient].filter((c): c is Redis => c !== null).map((c) => c.quit().catch(() => undefined)));
  }
}
