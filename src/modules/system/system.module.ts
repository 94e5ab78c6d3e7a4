import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OptionsModule } from '../options/options.module';
import { UsersModule } from '../users/users.module';
import { BillingModule } from '../billing/billing.module';
import { SetupEntity } from './entities/setup.entity';
import { SetupService } from './setup.service';
import { StatusService } from './status.service';
import { SystemController } from './system.controller';

@Module({
  imports: [BillingModule, TypeOrmModule.forFeature([SetupEntity]), OptionsModule, UsersModule],
  controllers: [SystemController],
  providers: [SetupService, StatusService],
  exports: [SetupService],
})
export class SystemModule {}
