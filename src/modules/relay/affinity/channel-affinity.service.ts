import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { RedisService } from '../../../common/redis/redis.service';
import { RoutingClock } from '../../channel-health/routing-clock';
import { OptionsService } from '../../options/options.service';

/** Bounds the memory: past this many live affinities, the least recently used go first. */
const MAX_AFFINITIES = 50_000;
const REDIS_PREFIX = 'gw:affinity:';

interface Affinity {
  channelId: number;
  expiresAtMs: number;
  /** When it was last written to Redis (its expiry there is renewed at most every half TTL). */
  sharedAtMs: number;
}

/**
 * Which channel last served each session (affinity key → channel), so the session's next calls
 * reach the same upstream and its prompt cache. Sliding expiry of ChannelAffinityTTLSeconds.
 * In memory; with Redis also shared, written when it changes or half its TTL has passed and
 * read only when this instance does not know the key. Keys are hashed: session ids stay out of Redis.
 */
@Injectable()
export class ChannelAffinityService {
  private readonly logger = new Logger(ChannelAffinityService.name);
  private readonly affinities = new Map<string, Affinity>();

  constructor(
    private readonly options: OptionsService,
    private readonly redis: RedisService,
    private readonly clock: RoutingClock,
  ) {}

  get enabled(): boolean {
    return this.options.get('ChannelAffinityTTLSeconds') > 0;
  }

  /** The channel the key is bound to, if the binding has not expired. */
  async channelFor(key: string): Promise<number | undefined> {
    const nowMs = this.clock.nowMs();
    const local = this.affinities.get(key);
    if (local) {
      if (local.expiresAtMs > nowMs) return local.channelId;
      this.affinities.delete(key);
    }
    const client = this.redis.client;
    // Only a connected Redis is asked: an affinity is worth less than a call waiting on a reconnect.
    if (client?.status !== 'ready') return undefined;
    try {
      const shared = await client.get(redisKey(key));
      if (!shared) return undefined;
      const [channelId, expiresAtMs] = shared.split(':').map(Number);
      // The expiry travels with the value, on the routing clock, so every instance ends it at the same moment.
      if (!(expiresAtMs > nowMs) || !Number.isInteger(channelId)) return undefined;
      this.store(key, { channelId, expiresAtMs, sharedAtMs: nowMs });
      return channelId;
    } catch (error) {
      this.logger.warn(`reading a shared affinity failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Binds the key to the channel that served it, for another TTL. */
  remember(key: string, channelId: number): void {
    const ttlMs = this.options.get('ChannelAffinityTTLSeconds') * 1000;
    if (ttlMs <= 0) return;
    const nowMs = this.clock.nowMs();
    const previous = this.affinities.get(key);
    const share = this.redis.client?.status === 'ready' && (previous?.channelId !== channelId || nowMs - previous.sharedAtMs >= ttlMs / 2);
    const affinity = { channelId, expiresAtMs: nowMs + ttlMs, sharedAtMs: share ? nowMs : (previous?.sharedAtMs ?? nowMs) };
    this.store(key, affinity);
    if (share) {
      this.redis.client!.set(redisKey(key), `${channelId}:${affinity.expiresAtMs}`, 'PX', ttlMs).catch((error: Error) => this.logger.warn(`sharing an affinity failed: ${error.message}`));
    }
  }

  private store(key: string, affinity: Affinity): void {
    // Re-inserted, so the map's order is least recently used first.
    this.affinities.delete(key);
    this.affinities.set(key, affinity);
    if (this.affinities.size > MAX_AFFINITIES) this.affinities.delete(this.affinities.keys().next().value!);
  }
}

function redisKey(key: string): string {
  return REDIS_PREFIX + createHash('sha256').update(key).digest('base64url');
}
