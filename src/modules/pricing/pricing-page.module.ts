import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { ModelsModule } from '../models/models.module';
import { OptionsModule } from '../options/options.module';
import { PricingController } from './pricing.controller';
import { PricingPageService } from './pricing-page.service';
import { PricingModule } from './pricing.module';

/**
 * The public pricing page. Kept apart from PricingModule, which the relay and billing use for
 * price lookups and which must not depend on channels.
 */
@Module({
  imports: [PricingModule, ChannelsModule, OptionsModule, ModelsModule],
  controllers: [PricingController],
  providers: [PricingPageService],
})
export class PricingPageModule {}
