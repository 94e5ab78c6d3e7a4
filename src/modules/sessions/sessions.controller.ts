import { Controller, Delete, Get, Param } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { SessionsService } from './sessions.service';
import type { SessionView } from './sessions.wire';

/** The personal page's list of signed-in browsers. */
@Controller('api/user/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<SessionView[]> {
    return this.sessions.listViews(user.id, user.sessionId);
  }

  /** Signs out every other browser; the one asking stays signed in. */
  @Delete()
  async revokeOthers(@CurrentUser() user: AuthenticatedUser): Promise<ApiResult<null>> {
    await this.sessions.destroyAllForUser(user.id, user.sessionId);
    return new ApiResult(null, 'session.others_revoked');
  }

  @Delete(':id')
  async revoke(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<ApiResult<null>> {
    await this.sessions.revoke(user.id, id);
    return new ApiResult(null, 'session.revoked');
  }
}
