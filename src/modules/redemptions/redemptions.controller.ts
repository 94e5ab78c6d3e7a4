import { Body, Controller, Get, Ip, Post, Put, Query } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { CreateRedemptionDto, RedeemDto, UpdateRedemptionDto } from './dto/redemption.dto';
import { RedemptionsService } from './redemptions.service';
import { RedemptionView } from './redemption.wire';
import { PagedListQuery } from '../../common/http/query-docs';

/** /api/redemption/*: administrators manage codes. The `:id` routes live in RedemptionByIdController. */
@AdminOnly()
@Controller('api/redemption')
export class RedemptionsController {
  constructor(private readonly redemptions: RedemptionsService) {}

  @Get()
  @PagedListQuery()
  list(@Query() query: Record<string, string>): Promise<Page<RedemptionView>> {
    return this.redemptions.list(parsePageQuery(query));
  }

  @Get('search')
  @PagedListQuery(['keyword'])
  search(@Query() query: Record<string, string>): Promise<Page<RedemptionView>> {
    return this.redemptions.search(String(query.keyword ?? '').slice(0, 64), parsePageQuery(query));
  }

  @Post()
  create(@CurrentUser() actor: AuthenticatedUser, @Body() dto: CreateRedemptionDto): Promise<string[]> {
    return this.redemptions.create(actor, dto);
  }

  /** ?status_only=true changes only the status (enable/disable); otherwise name and quota. */
  @Put()
  update(@Query('status_only') statusOnly: string | undefined, @Body() dto: UpdateRedemptionDto, @CurrentUser() actor: AuthenticatedUser): Promise<RedemptionView> {
    return statusOnly === 'true' || statusOnly === '1' ? this.redemptions.updateStatus(dto.id, dto.status, actor) : this.redemptions.update(dto, actor);
  }
}

/** POST /api/user/topup: a signed-in user redeems a code; answers the quota added. */
@Controller('api/user')
export class RedeemController {
  constructor(private readonly redemptions: RedemptionsService) {}

  @Post('topup')
  redeem(@CurrentUser() actor: AuthenticatedUser, @Body() dto: RedeemDto, @Ip() ip: string): Promise<number> {
    return this.redemptions.redeem(actor, dto.key, ip);
  }
}
