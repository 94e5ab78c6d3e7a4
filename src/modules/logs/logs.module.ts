import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogEntity } from './entities/log.entity';
import { LogOutboxEntity } from './entities/log-outbox.entity';
import { LogOutboxService } from './log-outbox.service';
import { LogWriter } from './log-writer';
import { LogPartitionsService } from './log-partitions.service';
import { LogsController } from './logs.controller';
import { LogsJobs } from './logs.jobs';
import { LogsService } from './logs.service';

/**
 * Depends on nothing but its tables (and the global database module's LogDatabase), so any
 * module (users, billing, relay) may import it. LogWriter is how the ledger writes log rows.
 */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity, LogOutboxEntity])],
  controllers: [LogsController],
  providers: [LogsService, LogWriter, LogOutboxService, LogPartitionsService, LogsJobs],
  exports: [LogsService, LogWriter, LogOutboxService, LogPartitionsService],
})
export class LogsModule {}
