import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { PlansModule } from '../plans/plans.module';
import { RedemptionEntity } from './entities/redemption.entity';
import { RedemptionByIdController } from './redemption-by-id.controller';
import { RedeemController, RedemptionsController } from './redemptions.controller';
import { RedemptionsService } from './redemptions.service';

/** Redemption codes and redeeming them into the balance (through the ledger). */
@Module({
  imports: [TypeOrmModule.forFeature([RedemptionEntity]), BillingModule, PlansModule],
  controllers: [RedemptionsController, RedeemController],
  providers: [RedemptionsService],
  exports: [RedemptionsService],
})
export class RedemptionsModule {}

/** Imported after every module with static /api/redemption/* paths (see app.module). */
@Module({
  imports: [RedemptionsModule],
  controllers: [RedemptionByIdController],
})
export class RedemptionByIdModule {}
