import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { LogPartitionsService } from './log-partitions.service';

/** Scheduled on the master only (NODE_TYPE), never on a request's path. */
@Injectable()
export class LogsJobs {
  constructor(private readonly partitions: LogPartitionsService) {}

  /** Next months' partitions exist long before their first row (a no-op on SQLite, and when they already do). */
  @Cron(CronExpression.EVERY_HOUR)
  async createPartitionsAhead(): Promise<void> {
    await this.partitions.ensureAhead();
  }

  /** Months a clear-logs call took out of logs whose files a crash left behind. */
  @Cron(CronExpression.EVERY_HOUR)
  async reclaimDetachedMonths(): Promise<void> {
    await this.partitions.reclaimDetachedMonths();
  }
}
