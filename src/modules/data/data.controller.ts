import { Controller, Get, Query } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { DataService } from './data.service';
import type { QuotaDataView } from './data.wire';
import { DataQueryDto } from './dto/data-query.dto';

/** Aggregated usage for the data dashboard (/detail). */
@Controller('api/data')
export class DataController {
  constructor(private readonly data: DataService) {}

  @AdminOnly()
  @Get()
  forAdmin(@Query() query: DataQueryDto): Promise<QuotaDataView[]> {
    return this.data.forAdmin({ start: query.start_timestamp, end: query.end_timestamp, granularity: query.granularity }, query.username?.trim());
  }

  @Get('self')
  forSelf(@CurrentUser() actor: AuthenticatedUser, @Query() query: DataQueryDto): Promise<QuotaDataView[]> {
    return this.data.forUser({ start: query.start_timestamp, end: query.end_timestamp, granularity: query.granularity }, actor.id);
  }
}
