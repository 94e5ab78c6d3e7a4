import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, RootOnly } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { RatioSyncApplyDto, RatioSyncDiffDto, SaveRatioSyncSourcesDto } from './dto/ratio-sync.dto';
import { RatioSyncService } from './ratio-sync.service';
import type { RatioSyncApplyResult, RatioSyncDiff, RatioSyncSource } from './ratio-sync.wire';

/** Ratio sync, root only: the sources, the diff against one of them, and applying picked rows. */
@RootOnly()
@Controller('api/ratio_sync')
export class RatioSyncController {
  constructor(private readonly ratioSync: RatioSyncService) {}

  @Get('sources')
  sources(): RatioSyncSource[] {
    return this.ratioSync.sources();
  }

  @Put('sources')
  saveSources(@Body() dto: SaveRatioSyncSourcesDto, @CurrentUser() user: AuthenticatedUser): Promise<RatioSyncSource[]> {
    return this.ratioSync.saveSources(user, dto.sources);
  }

  /** Fetches the source and compares; writes nothing. */
  @Post('diff')
  diff(@Body() dto: RatioSyncDiffDto): Promise<RatioSyncDiff> {
    return this.ratioSync.diff(dto);
  }

  @Post('apply')
  async apply(@Body() dto: RatioSyncApplyDto, @CurrentUser() user: AuthenticatedUser): Promise<ApiResult<RatioSyncApplyResult>> {
    const result = await this.ratioSync.apply(user, dto.source, dto.rows);
    return new ApiResult(result, 'ratio_sync.applied', { count: result.models });
  }
}
