import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

/**
 * Fixed-window counters: in memory on one instance, in Redis when several share it.
 * `hit` answers whether this request is still within the limit. While Redis cannot answer,
 * the count falls back to this instance's memory (each instance then allows the limit on
 * its own), with a warning: a short Redis outage loosens limits, it does not refuse everyone.
 */
@Injectable()
export class RateLimiterService {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly logger = new Logger(RateLimiterService.name);
  private lastSweep = Date.now();
  private lastOutageWarning = 0;

  constructor(private readonly redis: RedisService) {}

  async hit(key: string, max: number, windowSeconds: number): Promise<boolean> {
    const client = this.redis.client;
    if (client) {
      const redisKey = `ratelimit:${key}`;
      try {
        const [[, count]] = (await client.multi().incr(redisKey).expire(redisKey, windowSeconds, 'NX').exec()) as [[null, number]];
        return count <= max;
      } catch (error) {
        this.warnOutage(error as Error);
      }
    }
    return this.hitLocal(key, max, windowSeconds);
  }

  private hitLocal(key: string, max: number, windowSeconds: number): boolean {
    const now = Date.now();
    this.sweep(now);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
      return 1 <= max;
    }
    window.count += 1;
    return window.count <= max;
  }

  /** One warning a minute while Redis is down, not one per request. */
  private warnOutage(error: Error): void {
    const now = Date.now();
    if (now - this.lastOutageWarning < 60_000) return;
    this.lastOutageWarning = now;
    this.logger.warn(`rate limits counted on this instance alone, Redis failed: ${error.message}`);
  }

  /** Whether `key` has used up `max` hits in its current window; counts nothing (for limits on failures only). */
  async reached(key: string, max: number): Promise<boolean> {
    const client = this.redis.client;
    if (client) {
      try {
        return Number((await client.get(`ratelimit:${key}`)) ?? 0) >= max;
      } catch (error) {
        this.warnOutage(error as Error);
      }
    }
    const window = this.windows.get(key);
    return window !== undefined && window.resetAt > Date.now() && window.count >= max;
  }

  /** Forgets expired windows now and then, so the map cannot grow without bound. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
