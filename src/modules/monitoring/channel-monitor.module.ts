import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { NoticesModule } from '../notices/notices.module';
import { OptionsModule } from '../options/options.module';
import { ChannelCacheModule } from '../relay/caches/channel-cache.module';
import { ChannelMonitorService } from './channel-monitor.service';

/**
 * The rules that take a failing channel out of service and bring it back. Below the relay (whose
 * dispatch and task relays report failures to it) and the probes (which report test outcomes),
 * and importing neither.
 */
@Module({
  imports: [OptionsModule, ChannelsModule, NoticesModule, ChannelCacheModule],
  providers: [ChannelMonitorService],
  exports: [ChannelMonitorService],
})
export class ChannelMonitorModule {}
