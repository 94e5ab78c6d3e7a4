import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { LogsModule } from '../logs/logs.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { RelayModule } from '../relay/relay.module';
import { ChannelBalanceController } from './channel-balance.controller';
import { ChannelBalanceService } from './channel-balance.service';
import { ChannelMonitorModule } from './channel-monitor.module';
import { ChannelProbeController } from './channel-probe.controller';
import { ChannelProbeService } from './channel-probe.service';
import { MonitoringJobs } from './monitoring.jobs';
import { UpstreamDetectionController } from './upstream-detection.controller';
import { UpstreamDetectionService } from './upstream-detection.service';

/**
 * The admin's channel tests and model lists, the scheduled tests and balance updates (master
 * instance only), and the upstream detection. Above the relay: the probes send through its
 * adaptors and upstream client, and report to the channel monitor as the relay does.
 */
@Module({
  imports: [RelayModule, ChannelMonitorModule, OptionsModule, OutboundModule, ChannelsModule, LogsModule],
  controllers: [ChannelProbeController, ChannelBalanceController, UpstreamDetectionController],
  providers: [ChannelProbeService, ChannelBalanceService, MonitoringJobs, UpstreamDetectionService],
})
export class MonitoringModule {}
