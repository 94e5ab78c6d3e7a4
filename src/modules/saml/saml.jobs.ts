import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { SamlMessageIdsRepository } from './saml-message-ids.repository';

@Injectable()
export class SamlJobs {
  constructor(private readonly messageIds: SamlMessageIdsRepository) {}

  /** Expired ids are ignored when read; this only keeps the table small. */
  @Cron(CronExpression.EVERY_HOUR)
  async deleteExpiredMessageIds(): Promise<void> {
    await this.messageIds.deleteExpired();
  }
}
