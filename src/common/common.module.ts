import { Global, Module } from '@nestjs/common';
import { CacheSyncService } from './cache/cache-sync.service';
import { RateLimiterService } from './rate-limit/rate-limiter.service';
import { RedisService } from './redis/redis.service';

/** Shared plumbing every domain module may use. */
@Global()
@Module({
  providers: [RedisService, CacheSyncService, RateLimiterService],
  exports: [RedisService, CacheSyncService, RateLimiterService],
})
export class CommonModule {}
