import { Module } from '@nestjs/common';
import { HealthHttpHandler } from './health-http.handler';
import { HealthService } from './health.service';

/** The probes a load balancer or an orchestrator calls: /healthz and /readyz. */
@Module({
  providers: [HealthService, HealthHttpHandler],
  exports: [HealthService],
})
export class HealthModule {}
