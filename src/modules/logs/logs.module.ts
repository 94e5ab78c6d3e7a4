import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogEntity } from './entities/log.entity';
import { LogPartitionsService } from './log-partitions.service';
import { LogsController } from './logs.controller';
import { LogsJobs } from './logs.jobs';
import { LogsService } from './logs.service';

/** Depends on nothing but its table, so any module (users, billing, relay) may import it. */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity])],
  controllers: [LogsController],
  providers: [LogsService, LogPartitionsService, LogsJobs],
  exports: [LogsService, LogPartitionsService],
})
export class LogsModule {}
