import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { OutboundGuardService } from './outbound-guard.service';

/** The guard in front of every request the gateway sends out (relay, probes, model lists). */
@Module({
  imports: [OptionsModule],
  providers: [OutboundGuardService],
  exports: [OutboundGuardService],
})
export class OutboundModule {}
