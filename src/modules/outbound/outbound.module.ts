import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { OutboundGuardService } from './outbound-guard.service';
import { OutboundHttpService } from './outbound-http.service';
import { WorkerFetchService } from './worker-fetch.service';

/** The guard in front of every request the gateway sends out (relay, probes, model lists, balances, images, webhooks), and the worker for the gateway's own requests. */
@Module({
  imports: [OptionsModule],
  providers: [OutboundGuardService, OutboundHttpService, WorkerFetchService],
  exports: [OutboundGuardService, OutboundHttpService, WorkerFetchService],
})
export class OutboundModule {}
