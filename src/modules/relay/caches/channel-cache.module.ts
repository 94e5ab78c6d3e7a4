import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AbilityEntity } from '../../channels/entities/ability.entity';
import { ChannelEntity } from '../../channels/entities/channel.entity';
import { ChannelCacheService } from './channel-cache.service';

/**
 * The in-memory channel routes on their own, so the relay and the channel monitor (which takes a
 * failing channel out of them at once) share one cache without importing each other.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ChannelEntity, AbilityEntity])],
  providers: [ChannelCacheService],
  exports: [ChannelCacheService],
})
export class ChannelCacheModule {}
