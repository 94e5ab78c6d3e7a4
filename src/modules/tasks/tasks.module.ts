import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { OptionsModule } from '../options/options.module';
import { PricingModule } from '../pricing/pricing.module';
import { ChannelMonitorModule } from '../monitoring/channel-monitor.module';
import { RelayModule } from '../relay/relay.module';
import { GenericTaskEntity } from './entities/generic-task.entity';
import { MidjourneyTaskEntity } from './entities/midjourney-task.entity';
import { MidjourneyPollerService } from './midjourney/midjourney-poller.service';
import { MidjourneyRelayService } from './midjourney/midjourney-relay.service';
import { SunoPollerService } from './suno/suno-poller.service';
import { SunoRelayService } from './suno/suno-relay.service';
import { TaskBillingService } from './task-billing.service';
import { DrawingLogController, TaskLogController } from './task-logs.controller';
import { TaskLogsService } from './task-logs.service';
import { TaskRelayHttpHandler } from './task-relay.http';
import { TaskRelaySupport } from './task-relay-support.service';
import { TasksJobs } from './tasks.jobs';

/** Asynchronous task relays (Midjourney, Suno), their polling jobs and their logs (/api/mj, /api/task). */
@Module({
  imports: [TypeOrmModule.forFeature([MidjourneyTaskEntity, GenericTaskEntity]), OptionsModule, PricingModule, BillingModule, RelayModule, ChannelMonitorModule],
  controllers: [DrawingLogController, TaskLogController],
  providers: [
    TaskRelaySupport,
    TaskBillingService,
    MidjourneyRelayService,
    MidjourneyPollerService,
    SunoRelayService,
    SunoPollerService,
    TaskRelayHttpHandler,
    TaskLogsService,
    TasksJobs,
  ],
})
export class TasksModule {}
