/**
 * Calendar months in UTC as unix seconds, the unit the logs table is range-partitioned by on
 * MySQL/MariaDB and PostgreSQL (created_at is unix seconds). A month partition holds
 * [monthStart, nextMonthStart).
 */

/** The first second of the UTC month that holds `seconds`. */
export function monthStart(seconds: number): number {
  const date = new Date(seconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

/** The first second of the month `count` months after (or before, when negative) the one holding `seconds`. */
export function addMonths(seconds: number, count: number): number {
  const date = new Date(seconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + count, 1) / 1000;
}

/** The starts of every month from the one holding `from` through the one holding `to`, oldest first. */
export function monthsFromTo(from: number, to: number): number[] {
  const months: number[] = [];
  for (let month = monthStart(from); month <= to; month = addMonths(month, 1)) months.push(month);
  return months;
}

/** A month partition's name: `p202611` for November 2026 (MySQL's partition; PostgreSQL's table is `logs_p202611`). */
export function monthPartitionName(month: number): string {
  const date = new Date(month * 1000);
  return `p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Months past the current one that always have their partition ready (the migration creates them; LogsJobs keeps them coming). */
export const MONTHS_AHEAD = 3;

/** MySQL's name for the partition past the last month, which takes every later row so an insert never fails. */
export const MYSQL_CATCH_ALL_PARTITION = 'pmax';
/** PostgreSQL's default partition of logs: the rows no month partition takes. */
export const POSTGRES_DEFAULT_PARTITION = 'logs_default';

/** MySQL partition definitions, one per month (each VALUES LESS THAN the next month's start). */
export function mysqlMonthPartitions(months: number[]): string[] {
  return months.map((month) => `PARTITION ${monthPartitionName(month)} VALUES LESS THAN (${addMonths(month, 1)})`);
}

/** The statement that creates one month's partition of logs on PostgreSQL. */
export function postgresMonthPartition(month: number): string {
  return `CREATE TABLE logs_${monthPartitionName(month)} PARTITION OF logs FOR VALUES FROM (${month}) TO (${addMonths(month, 1)})`;
}
