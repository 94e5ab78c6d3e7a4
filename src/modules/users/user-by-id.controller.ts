import { Controller, Get, Param, ParseIntPipe } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { UserManagementService } from './user-management.service';
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
  get(@CurrentUser() actor: AuthenticatedUser, @Param('id', new ParseIntPipe({ exceptionFactory: () => new AppError('common.invalid_id') })) id: number): Promise<UserView> {
    return this.management.get(actor, id);
  }
}
