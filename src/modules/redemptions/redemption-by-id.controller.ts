import { Controller, Delete, Get, Param } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { RedemptionsService } from './redemptions.service';
import { RedemptionView } from './redemption.wire';

const redemptionId = new ParseRowIdPipe();

/** `:id` would swallow /api/redemption/search, so RedemptionByIdModule is imported late. */
@AdminOnly()
@Controller('api/redemption')
export class RedemptionByIdController {
  constructor(private readonly redemptions: RedemptionsService) {}

  @Get(':id')
  get(@Param('id', redemptionId) id: number): Promise<RedemptionView> {
    return this.redemptions.get(id);
  }

  @Delete(':id')
  async delete(@Param('id', redemptionId) id: number, @CurrentUser() actor: AuthenticatedUser): Promise<null> {
    await this.redemptions.delete(id, actor);
    return null;
  }
}
