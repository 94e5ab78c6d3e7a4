import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisService } from '../redis/redis.service';

const REDIS_CHANNEL = 'gateway:cache-invalidate';

/** Called with the changed entry's key, or with no key when the whole cache must reload. */
export type CacheReloader = (key?: string) => Promise<void> | void;

/**
 * Keeps in-memory caches in step with writes, on this instance and on others. A write calls
 * `invalidate(name, key?)`: local subscribers run at once and, through Redis when configured,
 * every other instance's too. On a shared MySQL or PostgreSQL database caches also reload fully every
 * SYNC_FREQUENCY seconds, as a safety net for instances without Redis.
 */
@Injectable()
export class CacheSyncService implements OnModuleDestroy {
  private readonly logger = new Logger(CacheSyncService.name);
  private readonly reloaders = new Map<string, Set<CacheReloader>>();
  private readonly instanceId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private timer?: NodeJS.Timeout;
  private listening = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  subscribe(name: string, reload: CacheReloader): () => void {
    let set = this.reloaders.get(name);
    if (!set) this.reloaders.set(name, (set = new Set()));
    set.add(reload);
    this.start();
    return () => set.delete(reload);
  }

  /** Runs local subscribers now and tells other instances. */
  async invalidate(name: string, key?: string): Promise<void> {
    await this.reload(name, key);
    this.publish(name, key);
  }

  /** Tells other instances only (this one already holds the new value). */
  publish(name: string, key?: string): void {
    this.redis.client?.publish(REDIS_CHANNEL, JSON.stringify({ name, key, from: this.instanceId })).catch((error: Error) => this.logger.warn(`publish failed: ${error.message}`));
  }

  private start(): void {
    if (this.listening) return;
    this.listening = true;
    const subscriber = this.redis.subscriber;
    if (subscriber) {
      const subscribe = () => void subscriber.subscribe(REDIS_CHANNEL).catch((error: Error) => this.logger.warn(`subscribe failed: ${error.message}`));
      // Again after every reconnect: the connection does not resubscribe by itself (RedisService.subscriber).
      subscriber.on('ready', subscribe);
      if (subscriber.status === 'ready') subscribe();
      subscriber.on('message', (_channel: string, payload: string) => {
        try {
          const { name, key, from } = JSON.parse(payload) as { name: string; key?: string; from: string };
          if (from !== this.instanceId) void this.reload(name, key);
        } catch {
          /* a foreign message on our channel is ignored */
        }
      });
    }
    if (this.config.database.type !== 'sqlite') {
      this.timer = setInterval(() => {
        for (const name of this.reloaders.keys()) void this.reload(name);
      }, this.config.syncFrequencySeconds * 1000);
      this.timer.unref();
    }
  }

  private async reload(name: string, key?: string): Promise<void> {
    for (const reload of this.reloaders.get(name) ?? []) {
      try {
        await reload(key);
      } catch (error) {
        this.logger.error(`reloading cache ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
