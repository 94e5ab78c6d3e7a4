import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { BuyPlanDto, CreatePlanDto, UpdatePlanDto } from './dto/plan.dto';
import type { PlanDeletion, PlanView, SubscriptionView } from './plan.wire';
import { PlansService } from './plans.service';
import { SubscriptionsService } from './subscriptions.service';

const planId = new ParseRowIdPipe();

/** /api/plan/*: administrators manage the plans on sale. */
@AdminOnly()
@Controller('api/plan')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Get()
  list(): Promise<PlanView[]> {
    return this.plans.list();
  }

  @Get(':id')
  get(@Param('id', planId) id: number): Promise<PlanView> {
    return this.plans.get(id);
  }

  @Post()
  create(@Body() dto: CreatePlanDto): Promise<PlanView> {
    return this.plans.create(dto);
  }

  @Put()
  update(@Body() dto: UpdatePlanDto): Promise<PlanView> {
    return this.plans.update(dto);
  }

  /** Deletes a plan nobody bought; disables one that was bought. */
  @Delete(':id')
  delete(@Param('id', planId) id: number): Promise<PlanDeletion> {
    return this.plans.delete(id);
  }
}

/** /api/subscription/*: a signed-in user's plans on sale, their subscriptions, and buying one from the balance. */
@Controller('api/subscription')
export class SubscriptionsController {
  constructor(
    private readonly plans: PlansService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get('plans')
  plansOnSale(): Promise<PlanView[]> {
    return this.plans.listEnabled();
  }

  @Get('self')
  own(@CurrentUser() actor: AuthenticatedUser): Promise<SubscriptionView[]> {
    return this.subscriptions.listOf(actor.id);
  }

  /** Buys or renews from the balance; online payment goes through POST /api/user/pay with plan_id. */
  @Post('self')
  buy(@CurrentUser() actor: AuthenticatedUser, @Body() dto: BuyPlanDto): Promise<SubscriptionView> {
    return this.subscriptions.buyWithBalance(actor, dto.plan_id);
  }
}
