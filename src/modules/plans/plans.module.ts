import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { OptionsModule } from '../options/options.module';
import { PlanEntity } from './entities/plan.entity';
import { SubscriptionEntity } from './entities/subscription.entity';
import { PlansController, SubscriptionsController } from './plans.controller';
import { PlansService } from './plans.service';
import { SubscriptionsService } from './subscriptions.service';

/** Subscription plans and the subscriptions users hold; draws on them are the ledger's (BillingModule). */
@Module({
  imports: [TypeOrmModule.forFeature([PlanEntity, SubscriptionEntity]), BillingModule, OptionsModule],
  controllers: [PlansController, SubscriptionsController],
  providers: [PlansService, SubscriptionsService],
  exports: [PlansService, SubscriptionsService],
})
export class PlansModule {}
