import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { ModelsModule } from '../models/models.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { RatioSyncController } from './ratio-sync.controller';
import { RatioSyncService } from './ratio-sync.service';

/** Ratio sync (/api/ratio_sync): prices from other gateways and published price lists, reviewed and applied by root. */
@Module({
  imports: [OptionsModule, OutboundModule, ChannelsModule, ModelsModule],
  controllers: [RatioSyncController],
  providers: [RatioSyncService],
})
export class RatioSyncModule {}
