import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogsModule } from '../logs/logs.module';
import { BillingModule } from '../billing/billing.module';
import { OptionsModule } from '../options/options.module';
import { PlansModule } from '../plans/plans.module';
import { PricingModule } from '../pricing/pricing.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UserEntity } from './entities/user.entity';
import { GroupsController } from './groups.controller';
import { SelfService } from './self.service';
import { UserManagementService } from './user-management.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [BillingModule, TypeOrmModule.forFeature([UserEntity]), OptionsModule, PricingModule, SessionsModule, LogsModule, PlansModule],
  controllers: [GroupsController, UsersController],
  providers: [UsersService, SelfService, UserManagementService],
  exports: [UsersService, UserManagementService],
})
export class UsersModule {}
