import { Controller, Get, Param } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { UserManagementService } from './user-management.service';
import type { SubscriptionView } from '../plans/plan.wire';
import { UserView } from './user.wire';

/**
 * GET /api/user/:id would swallow every static GET /api/user/<name> registered after it, so
 * it lives in UserByIdModule, which the app module imports last.
 */
@Controller('api/user')
export class UserByIdController {
  constructor(private readonly management: UserManagementService) {}

  @AdminOnly()
  @Get(':id')
  get(@CurrentUser() actor: AuthenticatedUser, @Param('id', ParseRowIdPipe) id: number): Promise<UserView> {
    return this.management.get(actor, id);
  }

  /** The user's subscriptions, in the shape of the user's own GET /api/subscription/self. */
  @AdminOnly()
  @Get(':id/subscriptions')
  subscriptions(@CurrentUser() actor: AuthenticatedUser, @Param('id', ParseRowIdPipe) id: number): Promise<SubscriptionView[]> {
    return this.management.subscriptions(actor, id);
  }
}
