import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogEntity } from '../logs/entities/log.entity';
import { OptionsModule } from '../options/options.module';
import { BudgetClock, BudgetWindowService } from './budget-window.service';
import { HoldJournalService } from './hold-journal.service';
import { QuotaLedgerService } from './quota-ledger.service';
import { SettlementBatcherService } from './settlement-batcher.service';

/** Quota holds before an upstream call and their settlement after it, and the budget windows they count against. */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity]), OptionsModule],
  providers: [QuotaLedgerService, SettlementBatcherService, HoldJournalService, BudgetWindowService, BudgetClock],
  exports: [QuotaLedgerService, SettlementBatcherService, BudgetWindowService, BudgetClock],
})
export class BillingModule {}
