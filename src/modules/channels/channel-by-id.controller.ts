import { Controller, Delete, Get, Param } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { ChannelView } from './channel.wire';
import { ChannelsService } from './channels.service';

const channelId = new ParseRowIdPipe();

/**
 * Express cannot limit `:id` to digits, so these routes would swallow static paths such as
 * /api/channel/search or DELETE /api/channel/disabled; ChannelByIdModule is imported late.
 */
@AdminOnly()
@Controller('api/channel')
export class ChannelByIdController {
  constructor(private readonly channels: ChannelsService) {}

  @Get(':id')
  get(@Param('id', channelId) id: number): Promise<ChannelView> {
    return this.channels.get(id);
  }

  @Delete(':id')
  async delete(@Param('id', channelId) id: number, @CurrentUser() actor: AuthenticatedUser): Promise<null> {
    await this.channels.delete(id, actor);
    return null;
  }
}
