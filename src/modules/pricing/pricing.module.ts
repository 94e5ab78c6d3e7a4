import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { PricingService } from './pricing.service';

@Module({
  imports: [OptionsModule],
  providers: [PricingService],
  exports: [PricingService],
})
export class PricingModule {}
