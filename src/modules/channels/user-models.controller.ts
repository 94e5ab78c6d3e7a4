import { Controller, Get } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { UserModelsService } from './user-models.service';

/** GET /api/user/models; registered before UserByIdModule so `:id` does not swallow it. */
@Controller('api/user')
export class UserModelsController {
  constructor(private readonly userModels: UserModelsService) {}

  @Get('models')
  list(@CurrentUser() actor: AuthenticatedUser): Promise<string[]> {
    return this.userModels.modelsFor(actor.group);
  }
}
