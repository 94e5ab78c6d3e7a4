import { Module } from '@nestjs/common';
import { LogsModule } from '../logs/logs.module';
import { MailModule } from '../mail/mail.module';
import { BillingModule } from '../billing/billing.module';
import { OutboundModule } from '../outbound/outbound.module';
import { OptionsModule } from '../options/options.module';
import { ChannelNoticesService } from './channel-notices.service';
import { QuotaAlertsService } from './quota-alerts.service';

/** Telling people what the system did on its own: channel notices and quota alerts. */
@Module({
  imports: [LogsModule, MailModule, BillingModule, OptionsModule, OutboundModule],
  providers: [ChannelNoticesService, QuotaAlertsService],
  exports: [ChannelNoticesService],
})
export class NoticesModule {}
