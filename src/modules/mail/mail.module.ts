import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { MailService } from './mail.service';

/** Outgoing mail. Import this module and inject MailService to send. */
@Module({
  imports: [OptionsModule],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
