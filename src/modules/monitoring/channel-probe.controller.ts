import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AdminOnly, RootOnly } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { ApiResult } from '../../common/http/envelope';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { ChannelProbeService, type FetchedModels } from './channel-probe.service';
import { FetchModelsDto } from './dto/fetch-models.dto';
import type { ProbeResult } from './probe-outcome';

const channelId = new ParseRowIdPipe();
const keyIndex = new ParseIntPipe({ exceptionFactory: () => new AppError('channel.key_not_found') });

/** Admin probes of upstream channels. */
@Controller('api/channel')
@AdminOnly()
export class ChannelProbeController {
  constructor(private readonly probes: ChannelProbeService) {}

  @Get('test/:id')
  async testChannel(@Param('id', ParseIntPipe) id: number, @Query('model') model: string | undefined, @Res() response: Response): Promise<void> {
    sendProbeResult(response, await this.probes.testChannel(id, model));
  }

  /** Tests one key of a multi-key channel as the scheduled test does (a pass brings an auto-disabled key back). */
  @Post(':id/keys/:index/test')
  async testKey(@Param('id', channelId) id: number, @Param('index', keyIndex) index: number, @Query('model') model: string | undefined, @Res() response: Response): Promise<void> {
    sendProbeResult(response, await this.probes.testKey(id, index, model));
  }

  @Get('test')
  testAll(): ApiResult<null> {
    this.probes.startTestAll();
    return new ApiResult(null, 'relay.channel_test_all_started');
  }

  @Get('fetch_models/:id')
  async fetchModelsOfChannel(@Param('id', ParseIntPipe) id: number): Promise<ApiResult<string[]>> {
    return modelsResult(await this.probes.fetchModelsOfChannel(id));
  }

  /** An arbitrary base URL makes the gateway dial wherever the caller says: root only, as in new-api. */
  @Post('fetch_models')
  @RootOnly()
  async fetchModels(@Body() body: FetchModelsDto): Promise<ApiResult<string[]>> {
    return modelsResult(await this.probes.fetchModelsFor({ type: body.type, baseUrl: body.base_url ?? '', key: body.key }));
  }
}

/** Answers {success, message, time, data}: the console reads `time` (seconds) beside the envelope's fields. */
function sendProbeResult(response: Response, result: ProbeResult): void {
  response.status(200).json({ success: result.success, message: result.message, time: result.time, data: null });
}

/** A known list (no list API upstream) says so in the message. */
function modelsResult(fetched: FetchedModels): ApiResult<string[]> {
  return new ApiResult(fetched.models, fetched.known ? 'relay.fetch_models_known_list' : undefined);
}
