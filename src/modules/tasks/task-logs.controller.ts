import { Controller, Get, Query } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { taskLogFilter, TaskLogQueryDto } from './dto/task-log-query.dto';
import { parseZeroBasedPage, TaskLogsService } from './task-logs.service';
import { DrawingTaskView, GenericTaskView, TaskPage } from './tasks.wire';

@Controller('api/mj')
export class DrawingLogController {
  constructor(private readonly logs: TaskLogsService) {}

  @AdminOnly()
  @Get()
  list(@Query() query: TaskLogQueryDto): Promise<TaskPage<DrawingTaskView>> {
    return this.logs.listDrawings(taskLogFilter(query, undefined), parseZeroBasedPage({ ...query }), true);
  }

  @Get('self')
  listOwn(@CurrentUser() actor: AuthenticatedUser, @Query() query: TaskLogQueryDto): Promise<TaskPage<DrawingTaskView>> {
    return this.logs.listDrawings(taskLogFilter(query, { userId: actor.id }), parseZeroBasedPage({ ...query }), false);
  }
}

@Controller('api/task')
export class TaskLogController {
  constructor(private readonly logs: TaskLogsService) {}

  @AdminOnly()
  @Get()
  list(@Query() query: TaskLogQueryDto): Promise<TaskPage<GenericTaskView>> {
    return this.logs.listTasks(taskLogFilter(query, undefined), parseZeroBasedPage({ ...query }), true);
  }

  @Get('self')
  listOwn(@CurrentUser() actor: AuthenticatedUser, @Query() query: TaskLogQueryDto): Promise<TaskPage<GenericTaskView>> {
    return this.logs.listTasks(taskLogFilter(query, { userId: actor.id }), parseZeroBasedPage({ ...query }), false);
  }
}
