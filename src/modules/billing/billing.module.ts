import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogEntity } from '../logs/entities/log.entity';
import { HoldJournalService } from './hold-journal.service';
import { QuotaLedgerService } from './quota-ledger.service';
import { SettlementBatcherService } from './settlement-batcher.service';

/** Quota holds before an upstream call and their settlement after it. */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity])],
  providers: [QuotaLedgerService, SettlementBatcherService, HoldJournalService],
  exports: [QuotaLedgerService, SettlementBatcherService],
})
export class BillingModule {}
