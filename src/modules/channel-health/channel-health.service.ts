import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { RedisService } from '../../common/redis/redis.service';
import { OptionsService } from '../options/options.service';
import { ChannelHealth, combineFigures, MAX_SAMPLE_WEIGHT, type AttemptOutcome, type PeerFigures } from './channel-health';
import type { ChannelHealthView } from '../channels/channel.wire';
import { RoutingClock } from './routing-clock';

/** One hash holds every instance's figures: one key, so it lives in one slot on a Cluster. */
const SHARED_HEALTH_KEY = 'gw:channel-health';
/** How often an instance shares its figures and reads its peers': off the request path, never per call. */
const SYNC_INTERVAL_MS = 5_000;
/** A peer's figures older than this no longer count (the peer stopped, or stopped calling the channel). */
const PEER_FRESH_MS = 60_000;
/** Figures older than this are removed from the hash, so stopped instances do not pile up. */
const PEER_FORGET_MS = 10 * 60_000;

/** A channel the health book is asked about: its id, and its priority and weight for the list's figures. */
export interface HealthSubject {
  id: number;
  priority: number;
  weight: number;
}

/**
 * Every channel's health in memory (ChannelHealth: O(1) per call), the circuit breakers, and
 * their sharing: with Redis, each instance pushes its own figures and reads its peers' every
 * few seconds, so all instances weigh channels alike. Breakers stay per instance: each one
 * opens on the faults it sees itself, while the peers' faults still lower the weight.
 */
@Injectable()
export class ChannelHealthService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ChannelHealthService.name);
  private readonly book = new Map<number, ChannelHealth>();
  private readonly instanceId = randomBytes(6).toString('hex');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly options: OptionsService,
    private readonly redis: RedisService,
    private readonly clock: RoutingClock,
  ) {}

  onModuleInit(): void {
    if (!this.redis.enabled) return;
    this.timer = setInterval(() => void this.sync().catch((error: Error) => this.logger.warn(`channel health sync: ${error.message}`)), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  get balancing(): boolean {
    return this.options.get('ChannelHealthBalancingEnabled');
  }

  get cooldownMs(): number {
    return this.options.get('ChannelBreakerCooldownSeconds') * 1000;
  }

  nowMs(): number {
    return this.clock.nowMs();
  }

  /** The channel's health, if any call has gone through it. */
  peek(channelId: number): ChannelHealth | undefined {
    return this.book.get(channelId);
  }

  attemptStarted(channel: { id: number; priority: number }): void {
    this.of(channel).attemptStarted();
  }

  attemptEnded(channel: { id: number; priority: number }, outcome: AttemptOutcome, latencyMs: number): void {
    this.of(channel).attemptEnded(outcome, latencyMs, this.clock.nowMs(), this.options.get('ChannelBreakerFailures'));
  }

  /**
   * What the channel list shows: the weight in effect is the static weight scaled by the
   * channel's factor against the fastest channel of its priority (the draw compares it with
   * the fastest of the tier it is drawn in, which for most setups is the same set).
   */
  figures(channel: HealthSubject): ChannelHealthView {
    const health = this.book.get(channel.id);
    if (!health) return { effective_weight: channel.weight, breaker_state: 'closed', health_latency_ms: 0, health_error_rate: 0 };
    let fastest = 0;
    for (const other of this.book.values()) {
      if (other.priority === channel.priority && other.latencyMs > 0 && (fastest === 0 || other.latencyMs < fastest)) fastest = other.latencyMs;
    }
    const factor = this.balancing ? health.factor(fastest) : 1;
    const resting = health.state === 'open' && !health.available(this.clock.nowMs(), this.cooldownMs);
    return {
      effective_weight: resting ? 0 : round(channel.weight * factor, 2),
      breaker_state: health.state,
      health_latency_ms: Math.round(health.latencyMs),
      health_error_rate: round(health.errorRate, 3),
    };
  }

  /** Pushes this instance's figures to Redis and takes in its peers'. No-op without a connected Redis. */
  async sync(): Promise<void> {
    const client = this.redis.client;
    // A Redis that is reconnecting is skipped, not queued for: the next round shares fresher figures.
    if (client?.status !== 'ready') return;
    const now = Date.now();
    const pushed: string[] = [];
    for (const [channelId, health] of this.book) {
      const figures = health.localFigures();
      if (figures.samples === 0) continue;
      pushed.push(`${channelId}|${this.instanceId}`, [figures.latencyMs, figures.errorRate, figures.samples, now].join('|'));
    }
    if (pushed.length > 0) {
      await client.hset(SHARED_HEALTH_KEY, ...pushed);
      await client.pexpire(SHARED_HEALTH_KEY, PEER_FORGET_MS);
    }
    const shared = await client.hgetall(SHARED_HEALTH_KEY);
    const peersByChannel = new Map<number, PeerFigures>();
    const forgotten: string[] = [];
    for (const [field, value] of Object.entries(shared)) {
      const [channelText, instance] = field.split('|');
      if (instance === this.instanceId) continue;
      const [latencyMs, errorRate, samples, at] = value.split('|').map(Number);
      if (now - at > PEER_FORGET_MS) forgotten.push(field);
      if (!(now - at <= PEER_FRESH_MS) || !(samples > 0)) continue;
      const channelId = Number(channelText);
      const sum = peersByChannel.get(channelId) ?? { latencyMs: 0, errorRate: 0, samples: 0 };
      peersByChannel.set(channelId, combineFigures(sum, { latencyMs, errorRate, samples: Math.min(samples, MAX_SAMPLE_WEIGHT) }));
    }
    if (forgotten.length > 0) await client.hdel(SHARED_HEALTH_KEY, ...forgotten);
    for (const [channelId, health] of this.book) if (!peersByChannel.has(channelId)) health.setPeers({ latencyMs: 0, errorRate: 0, samples: 0 });
    for (const [channelId, peers] of peersByChannel) this.of({ id: channelId, priority: this.book.get(channelId)?.priority ?? 0 }).setPeers(peers);
  }

  private of(channel: { id: number; priority: number }): ChannelHealth {
    let health = this.book.get(channel.id);
    if (!health) this.book.set(channel.id, (health = new ChannelHealth(channel.priority)));
    else health.priority = channel.priority;
    return health;
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
