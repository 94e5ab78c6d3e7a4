import { AccountsAndOptions1732233600000 } from './1732233600000-accounts-and-options';
import { RelayTables1732233700000 } from './1732233700000-relay-tables';
import { MoneyTables1732233800000 } from './1732233800000-money-tables';
import { UsernameCaseInsensitive1795390000000 } from './1795390000000-username-case-insensitive';
import { TopUps1795400000000 } from './1795400000000-top-ups';
import { OneTimeCodes1795410000000 } from './1795410000000-one-time-codes';
import { TaskTables1795420000000 } from './1795420000000-task-tables';
import { QuotaData1795430000000 } from './1795430000000-quota-data';
import { LogTypeIndex1795440000000 } from './1795440000000-log-type-index';
import { QuotaHolds1795450000000 } from './1795450000000-quota-holds';
import { TokenKeyHash1795460000000 } from './1795460000000-token-key-hash';
import { LogQueryIndexes1795470000000 } from './1795470000000-log-query-indexes';
import { QuotaHoldsWithoutRowid1795480000000 } from './1795480000000-quota-holds-without-rowid';
import { AuditLogs1795490000000 } from './1795490000000-audit-logs';
import { Identity1795500000000 } from './1795500000000-identity';
import { BudgetWindows1795510000000 } from './1795510000000-budget-windows';
import { SubscriptionPlans1795630000000 } from './1795630000000-subscription-plans';
import { LogDatabaseTables1795640000000 } from './1795640000000-log-database-tables';
import { LogOutbox1795640000001 } from './1795640000001-log-outbox';
import { LogDatabaseSubscriptionId1795640000002 } from './1795640000002-log-database-subscription-id';
import { LogPartitions1795650000000 } from './1795650000000-log-partitions';
import { ChannelKeyInfo1795660000000 } from './1795660000000-channel-key-info';
import { TokenModelFallbacks1795670000000 } from './1795670000000-token-model-fallbacks';
import { Scim1795710000000 } from './1795710000000-scim';
import { TokenResponseCache1795680000000 } from './1795680000000-token-response-cache';
import { Saml1795700000000 } from './1795700000000-saml';
import { Passkeys1795690000000 } from './1795690000000-passkeys';
import { ModelMetadata1795740000000 } from './1795740000000-model-metadata';
import { TaskSubscriptionId1795750000000 } from './1795750000000-task-subscription-id';
import { QuotaDataDaily1795760000000 } from './1795760000000-quota-data-daily';

/** Every migration, oldest first. Add new ones at the end. */
export const MIGRATIONS = [
  AccountsAndOptions1732233600000,
  RelayTables1732233700000,
  MoneyTables1732233800000,
  UsernameCaseInsensitive1795390000000,
  TopUps1795400000000,
  OneTimeCodes1795410000000,
  TaskTables1795420000000,
  QuotaData1795430000000,
  LogTypeIndex1795440000000,
  QuotaHolds1795450000000,
  TokenKeyHash1795460000000,
  LogQueryIndexes1795470000000,
  QuotaHoldsWithoutRowid1795480000000,
  AuditLogs1795490000000,
  Identity1795500000000,
  BudgetWindows1795510000000,
  SubscriptionPlans1795630000000,
  LogOutbox1795640000001,
  LogPartitions1795650000000,
  ChannelKeyInfo1795660000000,
  TokenModelFallbacks1795670000000,
  TokenResponseCache1795680000000,
  Passkeys1795690000000,
  Saml1795700000000,
  Scim1795710000000,
  ModelMetadata1795740000000,
  TaskSubscriptionId1795750000000,
  QuotaDataDaily1795760000000,
];

/** A separate log database's migrations (LOG_SQL_DSN), oldest first: only its log tables. */
export const LOG_DATABASE_MIGRATIONS = [LogDatabaseTables1795640000000, LogDatabaseSubscriptionId1795640000002, LogPartitions1795650000000, QuotaDataDaily1795760000000];
