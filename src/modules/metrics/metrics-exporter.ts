import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { SettlementBatcherService } from '../billing/settlement-batcher.service';
import { LogOutboxService } from '../logs/log-outbox.service';
import { ChannelCacheService } from '../relay/caches/channel-cache.service';
import { GatewayMetrics } from './gateway-metrics';

/**
 * The Prometheus view of the gateway: the recorder's series, the channel gauge from the
 * channel cache, the settlement backlog and the process defaults (event-loop lag, heap, GC).
 * Built only when metrics are on (prometheus-registry.ts, loaded then); a scrape reads memory,
 * never the database.
 */
@Injectable()
export class MetricsExporter implements OnModuleInit {
  private registry?: Promise<Registry>;

  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly channels: ChannelCacheService,
    private readonly settlements: SettlementBatcherService,
    private readonly logOutbox: LogOutboxService,
  ) {}

  /** Built at start, so the event-loop and GC series cover the time before the first scrape. */
  async onModuleInit(): Promise<void> {
    if (this.metrics.enabled) await this.ensureRegistry();
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    const registry = await this.ensureRegistry();
    const text = await registry.metrics();
    this.metrics.forgetModelLabels();
    return { text, contentType: registry.contentType };
  }

  private ensureRegistry(): Promise<Registry> {
    const { metrics, channels, settlements, logOutbox } = this;
    this.registry ??= import('./prometheus-registry').then(({ buildPrometheusRegistry }) => buildPrometheusRegistry({ metrics, channels, settlements, logOutbox }));
    return this.registry;
  }
}
