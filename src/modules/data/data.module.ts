import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { OptionsModule } from '../options/options.module';
import { DataController } from './data.controller';
import { DataService } from './data.service';
import { QuotaDataDailyEntity, QuotaDataEntity } from './entities/quota-data.entity';
import { UsageAggregatorService } from './usage-aggregator.service';

/** Usage aggregation into quota_data (by hour) and quota_data_daily, and the data dashboard's API. */
@Module({
  imports: [TypeOrmModule.forFeature([QuotaDataEntity, QuotaDataDailyEntity]), BillingModule, OptionsModule],
  controllers: [DataController],
  providers: [DataService, UsageAggregatorService],
  exports: [UsageAggregatorService],
})
export class DataModule {}
