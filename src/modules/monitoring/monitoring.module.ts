import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { RelayModule } from '../relay/relay.module';
import { ChannelBalanceController } from './channel-balance.controller';
import { ChannelBalanceService } from './channel-balance.service';
import { MonitoringJobs } from './monitoring.jobs';

/** Scheduled channel tests and balance updates (master instance only). */
@Module({
  imports: [RelayModule, OptionsModule],
  controllers: [ChannelBalanceController],
  providers: [ChannelBalanceService, MonitoringJobs],
})
export class MonitoringModule {}
