import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { Page } from '../../common/http/pagination';
import { ChannelListRow, ChannelView } from './channel.wire';
import { ChannelsService, KnownModel } from './channels.service';
import { CHANNEL_LIST_FILTERS, parseChannelListQuery } from './dto/channel-query';
import { BatchTagDto, ChannelIdsDto, CreateChannelDto, EditTagDto, TagDto, UpdateChannelDto } from './dto/channel.dto';
import { CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_MANUALLY_DISABLED } from './entities/channel.entity';
import { PagedListQuery } from '../../common/http/query-docs';

/** /api/channel/*: static paths only; the `:id` routes live in ChannelByIdController. The plain list takes the search filters too. */
@AdminOnly()
@Controller('api/channel')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Get()
  @PagedListQuery(CHANNEL_LIST_FILTERS)
  list(@Query() query: Record<string, string>): Promise<Page<ChannelListRow>> {
    return this.channels.list(parseChannelListQuery(query));
  }

  @Get('search')
  @PagedListQuery(CHANNEL_LIST_FILTERS)
  search(@Query() query: Record<string, string>): Promise<Page<ChannelListRow>> {
    return this.channels.list(parseChannelListQuery(query));
  }

  @Get('models_enabled')
  enabledModels(): Promise<string[]> {
    return this.channels.enabledModels();
  }

  @Get('models')
  knownModels(): Promise<KnownModel[]> {
    return this.channels.knownModels();
  }

  @Post()
  async create(@Body() dto: CreateChannelDto, @CurrentUser() actor: AuthenticatedUser): Promise<ApiResult<ChannelView[]>> {
    const created = await this.channels.create(dto, actor);
    return new ApiResult(created, 'channel.created', { count: created.length });
  }

  @Put()
  update(@Body() dto: UpdateChannelDto, @CurrentUser() actor: AuthenticatedUser): Promise<ChannelView> {
    return this.channels.update(dto, actor);
  }

  @Post('batch')
  deleteMany(@Body() dto: ChannelIdsDto, @CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.deleteMany(dto.ids, actor);
  }

  @Delete('disabled')
  deleteDisabled(@CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.deleteDisabled(actor);
  }

  @Post('fix')
  fixAbilities(): Promise<number> {
    return this.channels.fixAbilities();
  }

  @Post('batch/tag')
  setTag(@Body() dto: BatchTagDto, @CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.setTagForChannels(dto.ids, dto.tag, actor);
  }

  @Put('tag')
  editTag(@Body() dto: EditTagDto, @CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.editTag(dto, actor);
  }

  @Post('tag/enabled')
  enableTag(@Body() dto: TagDto, @CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.setTagStatus(dto.tag, CHANNEL_STATUS_ENABLED, actor);
  }

  @Post('tag/disabled')
  disableTag(@Body() dto: TagDto, @CurrentUser() actor: AuthenticatedUser): Promise<number> {
    return this.channels.setTagStatus(dto.tag, CHANNEL_STATUS_MANUALLY_DISABLED, actor);
  }
}
