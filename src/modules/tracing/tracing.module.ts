import { Global, Module } from '@nestjs/common';
import { GatewayTracing } from './gateway-tracing';

/** OpenTelemetry traces, for the relay's stages and the /api requests (see GatewayTracing). */
@Global()
@Module({
  providers: [GatewayTracing],
  exports: [GatewayTracing],
})
export class TracingModule {}
