import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { BilledUsage } from '../billing/billing-formula';
import { PricingService } from '../pricing/pricing.service';
import { CounterSeries, HistogramSeries, seriesKey } from './metric-series';

/** Seconds; a relay request runs from milliseconds (refusals) to minutes (long streams). */
const REQUEST_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const TIME_TO_FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30];

/** The model label of a model that no price map names: client-chosen names must not grow the series without bound. */
export const UNPRICED_MODEL_LABEL = 'other';
/** The model label of a request refused before it named a model. */
const NO_MODEL_LABEL = 'none';
/** The channel label of a request that reached no channel. */
const NO_CHANNEL_LABEL = 'none';
/** More distinct names than this in the label cache means clients are inventing them: start again. */
const MODEL_LABELS_KEPT = 2000;

/** Where a rate limit refused: the relay's model request limit, GLOBAL_API_RATE_LIMIT, CRITICAL_RATE_LIMIT. */
export type RateLimitScope = 'model' | 'api' | 'critical' | 'caller';

/**
 * The gateway's counters, kept in memory. Callers on the request path check `enabled` first
 * (a single boolean when metrics are off) and call one method; each method is a Map lookup
 * and a few additions. Labels stay bounded: the client format, a priced model name or
 * `other`, a channel id, a status class; never a user, token or key.
 */
@Injectable()
export class GatewayMetrics {
  /** METRICS_ENABLED: when false nothing is recorded and the recorder is never called. */
  readonly enabled: boolean;

  readonly requests = new CounterSeries(['inbound', 'model', 'channel_id', 'status_class']);
  readonly requestDuration = new HistogramSeries(['inbound', 'model'], REQUEST_DURATION_BUCKETS);
  readonly timeToFirstToken = new HistogramSeries(['inbound', 'model'], TIME_TO_FIRST_TOKEN_BUCKETS);
  readonly upstreamErrors = new CounterSeries(['channel_id', 'status']);
  readonly tokens = new CounterSeries(['model', 'kind']);
  readonly quotaConsumed = new CounterSeries(['model']);
  readonly rateLimited = new CounterSeries(['scope']);
  retries = 0;
  activeStreams = 0;

  private modelLabels = new Map<string, string>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly pricing: PricingService,
  ) {
    this.enabled = config.metrics.enabled;
  }

  /**
   * One relay request answered: `status` is what the client got, `channelId` the channel that
   * served it (or the last one tried; 0 when none was), `startedAt` its performance.now().
   */
  requestFinished(inbound: string, model: string | undefined, channelId: number, status: number, startedAt: number): void {
    const modelLabel = model === undefined ? NO_MODEL_LABEL : this.modelLabel(model);
    const channel = channelId > 0 ? String(channelId) : NO_CHANNEL_LABEL;
    this.requests.add(seriesKey(inbound, modelLabel, channel, statusClass(status)));
    this.requestDuration.observe(seriesKey(inbound, modelLabel), (performance.now() - startedAt) / 1000);
  }

  /** A streamed answer's first bytes reached the client `seconds` after the request came in. */
  firstToken(inbound: string, model: string, seconds: number): void {
    this.timeToFirstToken.observe(seriesKey(inbound, this.modelLabel(model)), seconds);
  }

  /** An attempt failed on the channel's side: `status` is the upstream's HTTP status, or what went wrong (timeout, connection_error). */
  upstreamError(channelId: number, status: number | string): void {
    this.upstreamErrors.add(seriesKey(String(channelId), String(status)));
  }

  /** Failover tried another channel. */
  retry(): void {
    this.retries++;
  }

  /** A request was charged `quota` for `usage`. */
  charged(model: string, usage: BilledUsage, quota: number): void {
    const label = this.modelLabel(model);
    this.tokens.add(seriesKey(label, 'prompt'), usage.promptTokens);
    this.tokens.add(seriesKey(label, 'completion'), usage.completionTokens);
    this.tokens.add(seriesKey(label, 'cache_read'), usage.cachedTokens);
    this.tokens.add(seriesKey(label, 'cache_write'), usage.cacheWriteTokens ?? 0);
    this.quotaConsumed.add(label, quota);
  }

  streamOpened(): void {
    this.activeStreams++;
  }

  streamClosed(): void {
    this.activeStreams--;
  }

  rateLimitRefused(scope: RateLimitScope): void {
    this.rateLimited.add(scope);
  }

  /**
   * Prices change while the gateway runs: the exporter calls this on every scrape, so a model
   * priced since is labelled by its name from then on.
   */
  forgetModelLabels(): void {
    this.modelLabels = new Map();
  }

  private modelLabel(model: string): string {
    let label = this.modelLabels.get(model);
    if (label === undefined) {
      label = this.pricing.modelPricing(model).priced ? model : UNPRICED_MODEL_LABEL;
      if (this.modelLabels.size >= MODEL_LABELS_KEPT) this.modelLabels = new Map();
      this.modelLabels.set(model, label);
    }
    return label;
  }
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100) - 1] ?? '5xx';
}
