import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { OptionsModule } from '../options/options.module';
import { PlansModule } from '../plans/plans.module';
import { UsersModule } from '../users/users.module';
import { TopUpEntity } from './entities/top-up.entity';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { StripeCheckoutService } from './stripe-checkout.service';

/** Online top-up orders and the payment providers' notices; credits go through the ledger. */
@Module({
  imports: [TypeOrmModule.forFeature([TopUpEntity]), BillingModule, OptionsModule, UsersModule, PlansModule],
  controllers: [PaymentsController],
  providers: [PaymentsService, StripeCheckoutService],
})
export class PaymentsModule {}
