import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { LogsModule } from '../logs/logs.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { RelayModule } from '../relay/relay.module';
import { ChannelBalanceController } from './channel-balance.controller';
import { ChannelBalanceService } from './channel-balance.service';
import { MonitoringJobs } from './monitoring.jobs';
import { UpstreamDetectionController } from './upstream-detection.controller';
import { UpstreamDetectionService } from './upstream-detection.service';

/** Scheduled channel tests and balance updates (master instance only), and the upstream detection. */
@Module({
  imports: [RelayModule, OptionsModule, OutboundModule, ChannelsModule, LogsModule],
  controllers: [ChannelBalanceController, UpstreamDetectionController],
  providers: [ChannelBalanceService, MonitoringJobs, UpstreamDetectionService],
})
export class MonitoringModule {}
