import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChannelHealthModule } from '../channel-health/channel-health.module';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { AbilitiesRepository } from './abilities.repository';
import { ChannelKeyStatesRepository } from './channel-key-states.repository';
import { ChannelTypeModelsController } from './channel-type-models.controller';
import { ChannelsController } from './channels.controller';
import { ChannelsService } from './channels.service';
import { AbilityEntity } from './entities/ability.entity';
import { ChannelEntity } from './entities/channel.entity';
import { UserModelsController } from './user-models.controller';
import { UserModelsService } from './user-models.service';

@Module({
  imports: [TypeOrmModule.forFeature([ChannelEntity, AbilityEntity]), OptionsModule, OutboundModule, ChannelHealthModule],
  controllers: [ChannelsController, ChannelTypeModelsController, UserModelsController],
  providers: [ChannelsService, AbilitiesRepository, ChannelKeyStatesRepository, UserModelsService],
  exports: [ChannelsService, AbilitiesRepository, ChannelKeyStatesRepository],
})
export class ChannelsModule {}
