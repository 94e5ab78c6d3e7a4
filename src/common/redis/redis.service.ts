import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { connectRedis, parseRedisConnString, RedisClient, RedisTopology } from './redis-topology';

/**
 * The optional Redis connection (REDIS_CONN_STRING): one server, a Sentinel set or a Cluster
 * (see redis-topology.ts). Everything works without it on one instance.
 */
@Injectable()
export class RedisService implements OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: RedisClient | null;
  /** Which kind of Redis this is; null without Redis. */
  readonly topology: RedisTopology | null;
  private subscriberClient: RedisClient | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.topology = config.redisUrl ? parseRedisConnString(config.redisUrl) : null;
    this.client = this.topology ? this.connect('commands', this.topology) : null;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /**
   * True on a Redis Cluster, where one command or transaction may only touch keys of one slot:
   * callers split multi-key work into one command per key there.
   */
  get isCluster(): boolean {
    return this.topology?.kind === 'cluster';
  }

  /**
   * A second connection, because a subscribed Redis connection cannot run other commands. It does
   * not resubscribe by itself after a reconnect (see connectRedis): subscribe on each `ready`.
   */
  get subscriber(): RedisClient | null {
    if (!this.topology) return null;
    this.subscriberClient ??= this.connect('subscriber', this.topology);
    return this.subscriberClient;
  }

  private connect(role: 'commands' | 'subscriber', topology: RedisTopology): RedisClient {
    const client = connectRedis(topology, role);
    client.on('error', (error: Error) => this.logger.warn(`redis ${role} connection: ${error.message}`));
    if (topology.kind !== 'single') client.on('+node', () => this.logger.debug(`redis ${role}: a ${topology.kind} node joined`));
    return client;
  }

  async onModuleDestroy(): Promise<void> {
    const clients = [this.client, this.subscriberClient].filter((c): c is RedisClient => c !== null);
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    // QUIT leaves the Sentinel failover detector's connections open (ioredis 5): close them too.
    for (const client of clients) client.disconnect();
  }
}
