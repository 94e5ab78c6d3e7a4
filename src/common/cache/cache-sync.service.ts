import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisService } from '../redis/redis.service';

const REDIS_CHANNEL = 'gateway:cache-invalidate';

/**
 * Keeps in-memory caches of several instances in step. A write publishes the cache's name
 * on Redis and every other instance reloads it; without Redis, on a shared MySQL database,
 * caches also reload every SYNC_FREQUENCY seconds as a safety net.
 */
@Injectable()
export class CacheSyncService implements OnModuleDestroy {
  private readonly logger = new Logger(CacheSyncService.name);
  private readonly reloaders = new Map<string, Set<() => Promise<void> | void>>();
  private readonly instanceId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private timer?: NodeJS.Timeout;
  private listening = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  subscribe(name: string, reload: () => Promise<void> | void): () => void {
    let set = this.reloaders.get(name);
    if (!set) this.reloaders.set(name, (set = new Set()));
    set.add(reload);
    this.start();
    return () => set.delete(reload);
  }

  publish(name: string): void {
    this.redis.client?.publish(REDIS_CHANNEL, JSON.stringify({ name, from: this.instanceId })).catch((error: Error) => this.logger.warn(`publish failed: ${error.message}`));
  }

  private start(): void {
    if (this.listening) return;
    this.listening = true;
    const subscriber = this.redis.subscriber;
    if (subscriber) {
      subscriber.subscribe(REDIS_CHANNEL).catch((error: Error) => this.logger.warn(`subscribe failed: ${error.message}`));
      subscriber.on('message', (_channel: string, payload: string) => {
        try {
          const { name, from } = JSON.parse(payload) as { name: string; from: string };
          if (from !== this.instanceId) this.reload(name);
        } catch {
          /* a foreign message on our channel is ignored */
        }
      });
    }
    if (this.config.database.type === 'mysql') {
      this.timer = setInterval(() => {
        for (const name of this.reloaders.keys()) this.reload(name);
      }, this.config.syncFrequencySeconds * 1000);
      this.timer.unref();
    }
  }

  private reload(name: string): void {
    for (const reload of this.reloaders.get(name) ?? []) {
      Promise.resolve()
        .then(reload)
        .catch((error: Error) => this.logger.error(`reloading cache ${name} failed: ${error.message}`));
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
