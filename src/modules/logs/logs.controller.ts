import { Controller, Delete, Get, Query } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { adminLogFilter, DeleteLogsQueryDto, LogQueryDto, ownLogFilter } from './dto/log-query.dto';
import { LogsService } from './logs.service';
import { AdminLogView, LogStat, LogView } from './log.wire';

@Controller('api/log')
export class LogsController {
  constructor(private readonly logs: LogsService) {}

  @AdminOnly()
  @Get()
  list(@Query() query: LogQueryDto): Promise<Page<AdminLogView>> {
    return this.logs.listForAdmin(adminLogFilter(query), parsePageQuery({ ...query }));
  }

  @AdminOnly()
  @Get('stat')
  stat(@Query() query: LogQueryDto): Promise<LogStat> {
    return this.logs.stat(adminLogFilter(query));
  }

  @Get('self')
  listOwn(@CurrentUser() actor: AuthenticatedUser, @Query() query: LogQueryDto): Promise<Page<LogView>> {
    return this.logs.listForUser({ ...ownLogFilter(query), userId: actor.id }, parsePageQuery({ ...query }));
  }

  @Get('self/stat')
  ownStat(@CurrentUser() actor: AuthenticatedUser, @Query() query: LogQueryDto): Promise<LogStat> {
    return this.logs.stat({ ...ownLogFilter(query), userId: actor.id });
  }

  @AdminOnly()
  @Delete()
  async deleteBefore(@Query() query: DeleteLogsQueryDto): Promise<ApiResult<number>> {
    const count = await this.logs.deleteBefore(query.target_timestamp);
    return new ApiResult(count, 'log.deleted_count', { count });
  }
}
