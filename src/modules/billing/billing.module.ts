import { Module } from '@nestjs/common';
import { LogsModule } from '../logs/logs.module';
import { OptionsModule } from '../options/options.module';
import { BudgetClock, BudgetWindowService } from './budget-window.service';
import { HoldJournalService } from './hold-journal.service';
import { QuotaLedgerService } from './quota-ledger.service';
import { SettlementBatcherService } from './settlement-batcher.service';

/** Quota holds before an upstream call and their settlement after it, and the budget windows they count against. */
@Module({
  imports: [LogsModule, OptionsModule],
  providers: [QuotaLedgerService, SettlementBatcherService, HoldJournalService, BudgetWindowService, BudgetClock],
  exports: [QuotaLedgerService, SettlementBatcherService, BudgetWindowService, BudgetClock],
})
export class BillingModule {}
