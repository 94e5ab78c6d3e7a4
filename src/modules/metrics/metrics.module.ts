import { Global, Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { LogsModule } from '../logs/logs.module';
import { PricingModule } from '../pricing/pricing.module';
import { RelayModule } from '../relay/relay.module';
import { GatewayMetrics } from './gateway-metrics';
import { MetricsExporter } from './metrics-exporter';
import { MetricsHttpHandler } from './metrics-http.handler';

/** The recorder every module may add to (the relay's stages, the rate limits). */
@Global()
@Module({
  imports: [PricingModule],
  providers: [GatewayMetrics],
  exports: [GatewayMetrics],
})
export class MetricsModule {}

/** GET /metrics: a module of its own, since it reads the relay's channel cache, which itself records. */
@Module({
  imports: [RelayModule, BillingModule, LogsModule],
  providers: [MetricsExporter, MetricsHttpHandler],
})
export class MetricsEndpointModule {}
