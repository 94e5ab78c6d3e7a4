import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '../../../common/redis/redis.service';
import { settleQuota, type BilledUsage } from '../../billing/billing-formula';
import { RoutingClock } from '../../channel-health/routing-clock';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { OptionsService } from '../../options/options.service';
import type { RelayCaller } from '../relay-caller';
import { REQUEST_ID_HEADER } from '../relay-error';
import type { ClientResponse } from '../wire/client-stream-writers';
import type { Delivery, PreparedRequest } from '../stages/relay-request';
import { AnswerLru, decodeAnswer, encodeAnswer, type CachedAnswer } from './cached-answer';
import { cachedStreamText, writeCachedStream } from './cached-stream';
import { cacheHitLog } from './cache-hit-log';
import { isCacheable, responseCacheKey } from './response-cache-key';

/** Says whether the response cache answered (`hit`) or was asked and had nothing (`miss`). */
export const CACHE_HEADER = 'x-gateway-cache';
const REDIS_PREFIX = 'gw:response-cache:';
/** An answer above this share of ResponseCacheMaxMB is not stored, so one answer cannot empty the cache. */
const LARGEST_ENTRY_SHARE = 1 / 8;

/**
 * The exact response cache: a call its token (`response_cache`) or group (ResponseCacheGroups)
 * opted into, repeated with the same body, model and user, is answered with the stored answer,
 * without a channel or an upstream, and billed at ResponseCacheHitRatio of what it costs the
 * caller now, through the request's billing hold. Stored in Redis when it is configured (shared
 * by every instance), else in this process's LRU of ResponseCacheMaxMB; ResponseCacheTTLSeconds
 * long either way. Calls that did not opt in cost a flag and a list check here.
 */
@Injectable()
export class ResponseCacheService {
  private readonly logger = new Logger(ResponseCacheService.name);
  private readonly local = new AnswerLru();

  constructor(
    private readonly options: OptionsService,
    private readonly redis: RedisService,
    private readonly clock: RoutingClock,
    private readonly metrics: GatewayMetrics,
  ) {}

  /**
   * Answers the call from the cache when it may: writes the stored answer (as a stream when
   * the client asked for one), settles the hold at the hit's price, and says true. On a miss,
   * says false and marks the call: `x-gateway-cache: miss`, and the key the settle stage
   * stores its answer under.
   */
  async answer(request: PreparedRequest, response: ClientResponse): Promise<boolean> {
    if (!this.optedIn(request.caller) || !isCacheable(request)) return false;
    const key = responseCacheKey(request, this.options.get('ResponseCacheSharedAcrossUsers'));
    const cached = await this.read(key);
    const streamText = cached && request.stream ? cachedStreamText(request, cached.bytes) : undefined;
    if (!cached || (request.stream && streamText === undefined)) {
      request.responseCacheKey = key;
      response.setHeader?.(CACHE_HEADER, 'miss');
      return false;
    }
    if (streamText !== undefined) {
      response.setHeader?.(CACHE_HEADER, 'hit');
      writeCachedStream(request, response, streamText);
    } else {
      response.writeHead(200, { 'content-type': cached.contentType, 'content-length': cached.bytes.length, [REQUEST_ID_HEADER]: request.requestId, [CACHE_HEADER]: 'hit' });
      response.end(cached.bytes);
    }
    this.chargeHit(request, cached.usage);
    return true;
  }

  /** Stores a missed call's complete JSON answer, once the settle stage knows what it was billed for. */
  remember(request: PreparedRequest, delivery: Delivery, usage: BilledUsage): void {
    const key = request.responseCacheKey;
    const { answer, answerType } = delivery;
    if (key === undefined || !answer || !answerType?.includes('json') || request.clientGone()) return;
    const maxBytes = this.options.get('ResponseCacheMaxMB') * 1024 * 1024;
    if (answer.length > maxBytes * LARGEST_ENTRY_SHARE) return;
    const ttlMs = this.options.get('ResponseCacheTTLSeconds') * 1000;
    const entry: CachedAnswer = { bytes: answer, contentType: answerType, usage, expiresAtMs: this.clock.nowMs() + ttlMs };
    const client = this.redis.client;
    // A copy: the answer may be a view of a larger buffer, which the cache would otherwise keep alive whole.
    if (!client) return this.local.set(key, { ...entry, bytes: Buffer.from(answer) }, maxBytes);
    if (client.status !== 'ready') return;
    client.set(REDIS_PREFIX + key, encodeAnswer(entry), 'PX', ttlMs).catch((error: Error) => this.logger.warn(`storing a cached answer failed: ${error.message}`));
  }

  private optedIn(caller: RelayCaller): boolean {
    if (caller.token?.responseCache) return true;
    const groups = this.options.get('ResponseCacheGroups');
    return groups.length > 0 && groups.includes(caller.group);
  }

  /** The live entry under the key: from Redis when configured (only a connected one is asked: a miss costs less than waiting on a reconnect), else from memory. */
  private async read(key: string): Promise<CachedAnswer | undefined> {
    const nowMs = this.clock.nowMs();
    const client = this.redis.client;
    if (!client) return this.local.get(key, nowMs);
    if (client.status !== 'ready') return undefined;
    try {
      const value = await client.getBuffer(REDIS_PREFIX + key);
      const entry = value ? decodeAnswer(value) : undefined;
      return entry && entry.expiresAtMs > nowMs ? entry : undefined;
    } catch (error) {
      this.logger.warn(`reading a cached answer failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  /**
   * A hit costs ResponseCacheHitRatio of what the stored answer's usage costs this caller now
   * (their group's ratio, today's prices), rounded to whole quota. It spends no channel's quota
   * and no TPM (no model tokens were used); its log row says `cache_hit`.
   */
  private chargeHit(request: PreparedRequest, usage: BilledUsage): void {
    const ratio = this.options.get('ResponseCacheHitRatio');
    const fullPrice = settleQuota(request.sheet, usage);
    const quota = Math.round(fullPrice * ratio);
    const log = this.options.get('LogConsumeEnabled') ? cacheHitLog(request, usage, quota, { ratio, fullPrice }) : undefined;
    request.billing.settle(quota, 0, log);
    request.callerLimit?.settle(0);
    if (this.metrics.enabled) this.metrics.requestFinished(request.route.inbound.wire, request.model, 0, 200, request.startedAt);
    request.trace?.finish(usage);
  }
}
