import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricType, type MetricValueWithName } from 'prom-client';
import type { SettlementBatcherService } from '../billing/settlement-batcher.service';
import type { LogOutboxService } from '../logs/log-outbox.service';
import { CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import type { ChannelCacheService } from '../relay/caches/channel-cache.service';
import type { GatewayMetrics } from './gateway-metrics';
import type { CounterSeries, HistogramSeries, LabelValues } from './metric-series';

function labelObject(names: readonly string[], values: LabelValues): Record<string, string> {
  const labels: Record<string, string> = {};
  names.forEach((name, index) => (labels[name] = values[index]));
  return labels;
}

/** prom-client's typings declare an enum its JavaScript never exports: the registry writes the type's name as given. */
const HISTOGRAM_TYPE = 'histogram' as unknown as MetricType;

/** A prom-client counter whose values are read from a CounterSeries at each scrape. */
function counterOf(registry: Registry, name: string, help: string, series: CounterSeries): Counter<string> {
  return new Counter({
    name,
    help,
    labelNames: [...series.labelNames],
    registers: [registry],
    collect() {
      this.reset();
      for (const entry of series.entries()) this.inc(labelObject(series.labelNames, entry.labels), entry.value);
    },
  });
}

/**
 * A prom-client histogram whose buckets are read from a HistogramSeries at each scrape:
 * prom-client's histograms take observations one by one, with no way to hand them counts.
 * The registry reads a histogram through `getForPromString` (text) or `get` (JSON).
 */
class SeriesHistogram extends Histogram<string> {
  constructor(
    registry: Registry,
    private readonly metricName: string,
    private readonly helpText: string,
    private readonly series: HistogramSeries,
  ) {
    super({ name: metricName, help: helpText, labelNames: [...series.labelNames], buckets: [...series.bounds], registers: [registry] });
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return this.getForPromString();
  }

  async getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: MetricValueWithName<string>[] = [];
    const { bounds, labelNames } = this.series;
    for (const entry of this.series.entries()) {
      const labels = labelObject(labelNames, entry.labels);
      let cumulative = 0;
      for (let bucket = 0; bucket <= bounds.length; bucket++) {
        cumulative += entry.counts[bucket];
        values.push({ metricName: `${this.metricName}_bucket`, labels: { ...labels, le: bucket < bounds.length ? bounds[bucket] : '+Inf' }, value: cumulative });
      }
      values.push({ metricName: `${this.metricName}_sum`, labels, value: entry.sum });
      values.push({ metricName: `${this.metricName}_count`, labels, value: entry.count });
    }
    return { name: this.metricName, help: this.helpText, type: HISTOGRAM_TYPE, aggregator: 'sum', collect: () => undefined, values };
  }
}

/** What the registry reads at each scrape. */
export interface MetricSources {
  metrics: GatewayMetrics;
  channels: ChannelCacheService;
  settlements: SettlementBatcherService;
  logOutbox: LogOutboxService;
}

/**
 * prom-client's registry of the gateway's series. This file is the only one that imports
 * prom-client: MetricsExporter loads it when metrics are on, so a gateway without them never
 * holds prom-client (issue 32).
 */
export function buildPrometheusRegistry({ metrics, channels, settlements, logOutbox }: MetricSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  counterOf(registry, 'gateway_requests_total', 'Relay requests answered, by client format, model (other: unpriced), serving channel and status class', metrics.requests);
  new SeriesHistogram(registry, 'gateway_request_duration_seconds', 'Relay request duration, from arrival to the last byte', metrics.requestDuration);
  new SeriesHistogram(registry, 'gateway_time_to_first_token_seconds', 'Streamed relay requests: from arrival to the first bytes sent to the client', metrics.timeToFirstToken);
  counterOf(registry, 'gateway_upstream_errors_total', 'Failed upstream attempts, by channel and upstream status (or timeout, connection_error, …)', metrics.upstreamErrors);
  new Counter({
    name: 'gateway_retries_total',
    help: 'Attempts on another channel after a channel failed (failover)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(metrics.retries);
    },
  });
  counterOf(registry, 'gateway_tokens_total', 'Tokens billed, by model and kind (prompt, completion, cache_read, cache_write)', metrics.tokens);
  counterOf(registry, 'gateway_quota_consumed_total', 'Quota charged, by model (500000 quota = 1 USD)', metrics.quotaConsumed);
  counterOf(registry, 'gateway_rate_limited_total', 'Requests refused by a rate limit, by scope (model, api, critical, caller: token and user RPM/TPM)', metrics.rateLimited);
  new Gauge({
    name: 'gateway_channel_enabled',
    help: 'Whether each channel is enabled (1) or not (0)',
    labelNames: ['channel_id'],
    registers: [registry],
    collect() {
      this.reset();
      for (const channel of channels.allChannels()) this.set({ channel_id: String(channel.id) }, channel.status === CHANNEL_STATUS_ENABLED ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gateway_active_streams',
    help: 'Streamed answers being relayed now',
    registers: [registry],
    collect() {
      this.set(metrics.activeStreams);
    },
  });
  new Gauge({
    name: 'gateway_settlement_queue_depth',
    help: 'Settlements (charges and their log rows) waiting to be written',
    registers: [registry],
    collect() {
      this.set(settlements.backlog().depth);
    },
  });
  new Gauge({
    name: 'gateway_log_batch_lag_seconds',
    help: 'How long the oldest settlement waiting to be written has waited (at most), in seconds',
    registers: [registry],
    collect() {
      this.set(settlements.backlog().lagSeconds);
    },
  });
  new Gauge({
    name: 'gateway_log_outbox_lag_seconds',
    help: 'With a separate log database (LOG_SQL_DSN), on the master: seconds since the log outbox was last copied empty (0 elsewhere)',
    registers: [registry],
    collect() {
      this.set(logOutbox.lagSeconds());
    },
  });
  return registry;
}
