import { Controller, Get } from '@nestjs/common';
import { ChannelsService } from './channels.service';

/** GET /api/models: channel type → its model names (the console caches it as channel_models). */
@Controller('api/models')
export class ChannelTypeModelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Get()
  list(): Record<number, string[]> {
    return this.channels.modelsByChannelType();
  }
}
