import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { OneTimeCodesService } from './one-time-codes.service';

@Injectable()
export class VerificationJobs {
  constructor(private readonly codes: OneTimeCodesService) {}

  /** Expired codes are refused when read; this only keeps the table small. */
  @Cron(CronExpression.EVERY_HOUR)
  async deleteExpiredCodes(): Promise<void> {
    await this.codes.deleteExpired();
  }
}
