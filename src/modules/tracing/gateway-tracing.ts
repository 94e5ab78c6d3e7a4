import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { RelayTracer } from './relay-trace';

/**
 * OpenTelemetry traces, when an OTLP endpoint is configured. Off, nothing of OpenTelemetry is
 * loaded (the SDK sits behind a dynamic import) and `tracer` stays undefined: the relay's only
 * cost is checking it.
 */
@Injectable()
export class GatewayTracing implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(GatewayTracing.name);
  /** The relay's tracer; undefined when tracing is off. */
  tracer: RelayTracer | undefined;
  private shutdownSdk: (() => Promise<void>) | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.tracing.enabled) return;
    const { startOtelTracing } = await import('./otel-relay-tracer');
    const started = startOtelTracing(this.config.version);
    this.tracer = started.tracer;
    this.shutdownSdk = started.shutdown;
    // Not the endpoint: its URL may carry credentials.
    this.logger.log(`OpenTelemetry traces exported over OTLP (${this.config.tracing.protocol})`);
  }

  /** After the modules closed (settlements written, streams ended): the last spans are exported before exit. */
  async onApplicationShutdown(): Promise<void> {
    await this.shutdownSdk?.().catch((error: Error) => this.logger.warn(`exporting the last spans failed: ${error.message}`));
  }
}
