import { Controller, Get, Query } from '@nestjs/common';
import { RootOnly } from '../../common/auth/auth.decorators';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { AuditService } from './audit.service';
import type { AuditLogView } from './audit.wire';
import { AuditQueryDto } from './dto/audit-query.dto';

/** GET /api/audit/: the administrators' changes, newest first; root only. */
@RootOnly()
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  list(@Query() query: AuditQueryDto): Promise<Page<AuditLogView>> {
    return this.audit.list(
      { actor: query.actor, actorId: query.actor_id, entity: query.entity, entityId: query.entity_id, start: query.start_timestamp, end: query.end_timestamp },
      parsePageQuery({ ...query }),
    );
  }
}
