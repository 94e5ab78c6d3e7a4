import { Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
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

  /** A new channel with this one's settings and key, named with `suffix` (the console sends its language's "copy"). */
  @Post('copy/:id')
  copy(@Param('id', channelId) id: number, @Query('suffix') suffix: unknown, @CurrentUser() actor: AuthenticatedUser): Promise<ChannelView> {
    return this.channels.copy(id, typeof suffix === 'string' ? suffix.slice(0, 32) : '_copy', actor);
  }

  @Delete(':id')
  async delete(@Param('id', channelId) id: number, @CurrentUser() actor: AuthenticatedUser): Promise<null> {
    await this.channels.delete(id, actor);
    return null;
  }
}
