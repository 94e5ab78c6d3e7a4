import { Controller, Get, Param } from '@nestjs/common';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import type { UpstreamGroup } from './monitoring.wire';
import { UpstreamDetectionService } from './upstream-detection.service';

const channelId = new ParseRowIdPipe();

/** The admin's upstream test: which groups and clients reach a channel's upstream. */
@Controller('api/channel/test_upstream')
@AdminOnly()
export class UpstreamDetectionController {
  constructor(private readonly detection: UpstreamDetectionService) {}

  @Get(':id')
  detect(@Param('id', channelId) id: number): Promise<UpstreamGroup[]> {
    return this.detection.detect(id);
  }
}
