import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OptionsModule } from '../options/options.module';
import { AuditController } from './audit.controller';
import { AuditJobs } from './audit.jobs';
import { AuditService } from './audit.service';
import { AuditLogEntity } from './entities/audit-log.entity';

/** The administrators' audit log: every module that changes what an admin manages records here. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditLogEntity])],
  controllers: [AuditController],
  providers: [AuditService],
  exports: [AuditService],
})
export class AuditModule {}

/** The retention job, apart: it reads the options, which themselves record to the audit log. */
@Module({
  imports: [OptionsModule],
  providers: [AuditJobs],
})
export class AuditJobsModule {}
