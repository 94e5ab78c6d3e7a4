import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

/**
 * Fixed-window counters: in memory on one instance, in Redis when several share it.
 * `hit` answers whether this request is still within the limit.
 */
@Injectable()
export class RateLimiterService {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  constructor(private readonly redis: RedisService) {}

  async hit(key: string, max: number, windowSeconds: number): Promise<boolean> {
    const client = this.redis.client;
    if (client) {
      const redisKey = `ratelimit:${key}`;
      const [[, count]] = (await client.multi().incr(redisKey).expire(redisKey, windowSeconds, 'NX').exec()) as [[null, number]];
      return count <= max;
    }
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

  /** Whether `key` has used up `max` hits in its current window; counts nothing (for limits on failures only). */
  async reached(key: string, max: number): Promise<boolean> {
    const client = this.redis.client;
    if (client) return Number((await client.get(`ratelimit:${key}`)) ?? 0) >= max;
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
