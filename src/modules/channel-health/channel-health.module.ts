import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { ChannelHealthService } from './channel-health.service';
import { RoutingClock } from './routing-clock';

/** Channel health and circuit breakers: the relay records and reads them, the channel list shows them. */
@Module({
  imports: [OptionsModule],
  providers: [ChannelHealthService, RoutingClock],
  exports: [ChannelHealthService, RoutingClock],
})
export class ChannelHealthModule {}
