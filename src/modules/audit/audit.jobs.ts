import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { OptionsService } from '../options/options.service';
import { AuditService } from './audit.service';

const SECONDS_PER_DAY = 86_400;

@Injectable()
export class AuditJobs {
  private readonly logger = new Logger(AuditJobs.name);

  constructor(
    private readonly options: OptionsService,
    private readonly audit: AuditService,
  ) {}

  /** AuditLogRetentionDays: rows older than that go, once an hour (0 keeps them all). */
  @Cron(CronExpression.EVERY_HOUR)
  async applyRetention(): Promise<void> {
    const days = this.options.get('AuditLogRetentionDays');
    if (days <= 0) return;
    const removed = await this.audit.deleteOlderThan(days * SECONDS_PER_DAY);
    if (removed > 0) this.logger.log(`removed ${removed} audit rows older than ${days} days`);
  }
}
