import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '../../../common/redis/redis.service';
import type { RedisClient } from '../../../common/redis/redis-topology';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { OptionsService } from '../../options/options.service';
import { RelayError } from '../relay-error';

/** What admission took: `release` gives back the success slot of a request that failed. */
export interface RateLimitTicket {
  release(): void;
}

/** The limits that apply to one caller; a count of 0 means unlimited. */
interface Limits {
  windowMs: number;
  requests: number;
  successes: number;
}

const NO_TICKET: RateLimitTicket = { release: () => undefined };
const ADMITTED = 0;
const REFUSED_REQUESTS = 1;
const REFUSED_SUCCESSES = 2;

/**
 * Admission and reservation in one step, so concurrent requests (on any instance) cannot
 * overshoot: refuse when either count of the current window is full, else count the request
 * and reserve a success. The window comes from Redis's clock, so instances agree on it.
 * KEYS[1]: the user's key prefix, a Cluster hash tag (`{…}`) so the keys made from it share its slot. ARGV: window ms, request limit, success limit (0 = none).
 * Answers {verdict, success key, ms until the window ends}.
 */
const ADMIT_SCRIPT = `
local now = redis.call('TIME')
local windowMs = tonumber(ARGV[1])
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = math.floor(nowMs / windowMs)
local ttl = (window + 1) * windowMs - nowMs + 1000
local requestKey = KEYS[1] .. ':' .. window .. ':requests'
local successKey = KEYS[1] .. ':' .. window .. ':successes'
local requests = tonumber(ARGV[2])
local successes = tonumber(ARGV[3])
local left = (window + 1) * windowMs - nowMs
if requests > 0 and tonumber(redis.call('GET', requestKey) or '0') >= requests then return {1, successKey, left} end
if successes > 0 and tonumber(redis.call('GET', successKey) or '0') >= successes then return {2, successKey, left} end
if requests > 0 then redis.call('INCR', requestKey); redis.call('PEXPIRE', requestKey, ttl) end
if successes > 0 then redis.call('INCR', successKey); redis.call('PEXPIRE', successKey, ttl) end
return {0, successKey, left}
`;

/** Gives back a reserved success, in the window it was taken from (gone when that window ended). */
const RELEASE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0
`;

type RedisWithScripts = RedisClient & {
  modelRateLimitAdmit(prefix: string, windowMs: number, requests: number, successes: number): Promise<[number, string, number]>;
  modelRateLimitRelease(successKey: string): Promise<number>;
};

/** A verdict (ADMITTED or REFUSED_…), how to give the success back, and how long the current window still runs. */
interface Admission {
  verdict: number;
  release: () => void;
  windowLeftMs: number;
}

/** One user's counts in the current window of this instance (no Redis). */
interface LocalWindow {
  window: number;
  requests: number;
  successes: number;
}

/**
 * The per-user model request limit (ModelRequestRateLimit*): at most `requests` requests
 * (failed ones included) and `successes` successful ones per window of DurationMinutes, with
 * per-group overrides in ModelRequestRateLimitGroup. A request reserves its success when it
 * is admitted and gives it back if it fails, so the limit is exact under concurrency. Counted
 * in Redis when configured (one limit for every instance), in memory otherwise.
 */
@Injectable()
export class ModelRateLimiterService {
  private readonly logger = new Logger(ModelRateLimiterService.name);
  private readonly redis: RedisWithScripts | null;
  private readonly local = new Map<number, LocalWindow>();
  private lastSweep = 0;

  constructor(
    private readonly options: OptionsService,
    redis: RedisService,
    private readonly metrics: GatewayMetrics,
  ) {
    this.redis = redis.client as RedisWithScripts | null;
    this.redis?.defineCommand('modelRateLimitAdmit', { numberOfKeys: 1, lua: ADMIT_SCRIPT });
    this.redis?.defineCommand('modelRateLimitRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }

  get enabled(): boolean {
    return this.options.get('ModelRequestRateLimitEnabled');
  }

  /** Admits a request of the user, in the group it runs in, or refuses it with a 429. */
  async admit(userId: number, group: string): Promise<RateLimitTicket> {
    const limits = this.limitsFor(group);
    if (limits.windowMs === 0 || (limits.requests === 0 && limits.successes === 0)) return NO_TICKET;
    const admission = this.redis ? await this.admitShared(userId, limits) : this.admitLocal(userId, limits);
    if (admission.verdict !== ADMITTED && this.metrics.enabled) this.metrics.rateLimitRefused('model');
    if (admission.verdict === REFUSED_REQUESTS) throw refusal(`at most ${limits.requests} requests (failed ones included)`, limits, admission.windowLeftMs);
    if (admission.verdict === REFUSED_SUCCESSES) throw refusal(`at most ${limits.successes} successful requests`, limits, admission.windowLeftMs);
    return { release: admission.release };
  }

  private limitsFor(group: string): Limits {
    const override = this.options.get('ModelRequestRateLimitGroup')[group];
    const requests = override ? override[0] : this.options.get('ModelRequestRateLimitCount');
    const successes = override ? override[1] : this.options.get('ModelRequestRateLimitSuccessCount');
    return { windowMs: this.options.get('ModelRequestRateLimitDurationMinutes') * 60_000, requests: Math.max(0, requests), successes };
  }

  private async admitShared(userId: number, limits: Limits): Promise<Admission> {
    const redis = this.redis as RedisWithScripts;
    let answer: [number, string, number];
    try {
      answer = await redis.modelRateLimitAdmit(`model-rate-limit:{${userId}}`, limits.windowMs, limits.requests, limits.successes);
    } catch (error) {
      // Redis unreachable: serve rather than refuse everyone; the operator sees why the limit slipped.
      this.logger.warn(`model rate limit not checked, Redis failed: ${(error as Error).message}`);
      return { verdict: ADMITTED, release: () => undefined, windowLeftMs: 0 };
    }
    const [verdict, successKey, windowLeftMs] = answer;
    const release = () => void redis.modelRateLimitRelease(successKey).catch((error: Error) => this.logger.warn(`model rate limit release failed: ${error.message}`));
    return { verdict, release: limits.successes > 0 ? release : () => undefined, windowLeftMs };
  }

  private admitLocal(userId: number, limits: Limits): Admission {
    const now = Date.now();
    this.sweep(now, limits.windowMs);
    const window = Math.floor(now / limits.windowMs);
    const windowLeftMs = (window + 1) * limits.windowMs - now;
    let counts = this.local.get(userId);
    if (!counts || counts.window !== window) this.local.set(userId, (counts = { window, requests: 0, successes: 0 }));
    if (limits.requests > 0 && counts.requests >= limits.requests) return { verdict: REFUSED_REQUESTS, release: () => undefined, windowLeftMs };
    if (limits.successes > 0 && counts.successes >= limits.successes) return { verdict: REFUSED_SUCCESSES, release: () => undefined, windowLeftMs };
    counts.requests += 1;
    counts.successes += 1;
    const taken = counts;
    return { verdict: ADMITTED, release: () => void (taken.successes -= 1), windowLeftMs };
  }

  /** Forgets users whose window has ended, now and then, so the map stays the size of the active users. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const window = Math.floor(now / windowMs);
    for (const [userId, counts] of this.local) if (counts.window !== window) this.local.delete(userId);
  }
}

/** The 429, with Retry-After: the seconds until the window ends, when the counts start again. */
function refusal(limit: string, limits: Limits, windowLeftMs: number): RelayError {
  const minutes = limits.windowMs / 60_000;
  const error = new RelayError('rate_limit_exceeded', `Request limit reached: ${limit} in ${minutes} minute${minutes === 1 ? '' : 's'}. Try again later`, 429);
  error.retryAfterSeconds = Math.max(1, Math.ceil(windowLeftMs / 1000));
  return error;
}
