import { Controller, Delete, Get, Param, ParseIntPipe, Post } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import type { ChannelKeyList } from '../channels/channel.wire';
import { ChannelKeysService } from './channel-keys.service';

const channelId = new ParseRowIdPipe();
const keyIndex = new ParseIntPipe({ exceptionFactory: () => new AppError('channel.key_not_found') });

/** The keys of a multi-key channel (one key per line of its key field), addressed by index from 0. Keys are only ever shown masked. */
@AdminOnly()
@Controller('api/channel/:id/keys')
export class ChannelKeysController {
  constructor(private readonly keys: ChannelKeysService) {}

  @Get()
  list(@Param('id', channelId) id: number): Promise<ChannelKeyList> {
    return this.keys.list(id);
  }

  @Post(':index/enable')
  enable(@Param('id', channelId) id: number, @Param('index', keyIndex) index: number, @CurrentUser() actor: AuthenticatedUser): Promise<ChannelKeyList> {
    return this.keys.setEnabled(id, index, true, actor);
  }

  @Post(':index/disable')
  disable(@Param('id', channelId) id: number, @Param('index', keyIndex) index: number, @CurrentUser() actor: AuthenticatedUser): Promise<ChannelKeyList> {
    return this.keys.setEnabled(id, index, false, actor);
  }

  @Delete(':index')
  delete(@Param('id', channelId) id: number, @Param('index', keyIndex) index: number, @CurrentUser() actor: AuthenticatedUser): Promise<ChannelKeyList> {
    return this.keys.delete(id, index, actor);
  }
}
