import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { SessionsService } from './sessions.service';

@Injectable()
export class SessionsJobs {
  private readonly logger = new Logger(SessionsJobs.name);

  constructor(private readonly sessions: SessionsService) {}

  /** Database-stored sessions do not expire by themselves (Redis ones do). */
  @Cron(CronExpression.EVERY_HOUR)
  async deleteExpiredSessions(): Promise<void> {
    const removed = await this.sessions.deleteExpired();
    if (removed > 0) this.logger.log(`removed ${removed} expired sessions`);
  }
}
