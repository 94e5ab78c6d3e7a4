import { Module } from '@nestjs/common';
import { ChannelByIdController } from './channel-by-id.controller';
import { ChannelsModule } from './channels.module';

/** Imported after every module with static /api/channel/* paths (see app.module). */
@Module({
  imports: [ChannelsModule],
  controllers: [ChannelByIdController],
})
export class ChannelByIdModule {}
