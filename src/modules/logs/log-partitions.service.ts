import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { nowSeconds } from '../../database/columns';
import { queryAnyDialect, sqlDialect } from '../../database/dialect';
import { LogDatabase } from '../../database/log-database';
import {
  addMonths,
  monthPartitionName,
  monthsFromTo,
  MONTHS_AHEAD,
  monthStart,
  MYSQL_CATCH_ALL_PARTITION,
  mysqlMonthPartitions,
  POSTGRES_DEFAULT_PARTITION,
  postgresMonthPartition,
} from './log-months';

/** One partition of logs: created_at in [from, to); null `from` takes everything older, null `to` everything later. */
export interface LogPartition {
  name: string;
  from: number | null;
  to: number | null;
  /** The database's statistics' row count (an estimate; -1 when it has none yet). */
  estimatedRows: number;
}

/** A dropped month whose statistics say fewer rows than this is counted exactly first; bigger ones report the estimate (an exact count of millions of rows takes seconds). */
const EXACT_COUNT_BELOW = 100_000;
/**
 * A month taken out of logs lives on as a table named `dropped_logs_p<yyyymm>` until its files
 * are deleted, after the clear-logs call answers (see dropMonthsBefore).
 */
const DETACHED_MONTH_PREFIX = 'dropped_';

/**
 * The monthly range partitions of the logs table on MySQL/MariaDB and PostgreSQL (SQLite keeps
 * one table; every method does nothing there). Months are created ahead by a job (LogsJobs),
 * and retention takes whole months out of the table at once, whatever their size.
 */
@Injectable()
export class LogPartitionsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LogPartitionsService.name);

  private readonly dataSource: DataSource;
  /** The files of the months taken out being deleted, after the call that took them out answered. */
  private reclaiming: Promise<void> = Promise.resolve();

  /** The logs' own database: the main one, or LOG_SQL_DSN's. */
  constructor(logDatabase: LogDatabase) {
    this.dataSource = logDatabase.dataSource;
  }

  /** Before the database closes: the months taken out are gone. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.reclaiming;
  }

  /** The partitions oldest first; empty on SQLite (or a table not partitioned). */
  async list(): Promise<LogPartition[]> {
    const dialect = sqlDialect(this.dataSource);
    if (dialect === 'mysql') {
      const rows = await this.dataSource.query(
        `SELECT PARTITION_NAME AS name, PARTITION_DESCRIPTION AS bound, TABLE_ROWS AS estimated_rows FROM information_schema.PARTITIONS
         WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'logs' AND PARTITION_NAME IS NOT NULL ORDER BY PARTITION_ORDINAL_POSITION`,
      );
      let from: number | null = null;
      return (rows as Array<{ name: string; bound: string; estimated_rows: number | string | null }>).map((row) => {
        const to = row.bound === 'MAXVALUE' ? null : Number(row.bound);
        const partition = { name: row.name, from, to, estimatedRows: Number(row.estimated_rows ?? -1) };
        from = to;
        return partition;
      });
    }
    if (dialect === 'postgres') {
      const rows = await this.dataSource.query(
        `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, c.reltuples AS estimated_rows
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('logs')`,
      );
      const partitions = (rows as Array<{ name: string; bound: string; estimated_rows: number | string }>).map((row) => {
        const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(row.bound);
        return { name: row.name, from: range ? Number(range[1]) : null, to: range ? Number(range[2]) : null, estimatedRows: Number(row.estimated_rows) };
      });
      // The default partition (no range) sorts last, after the latest month.
      return partitions.sort((a, b) => (a.from ?? Infinity) - (b.from ?? Infinity));
    }
    return [];
  }

  /** Makes sure the current month and the MONTHS_AHEAD after it have their partitions; answers the names it created. */
  ensureAhead(now = nowSeconds()): Promise<string[]> {
    return this.ensureMonths(now, addMonths(now, MONTHS_AHEAD));
  }

  /**
   * Gives every month from the one holding `from` through the one holding `to` its own
   * partition. Rows already in the catch-all partition for such a month move into it.
   */
  async ensureMonths(from: number, to: number): Promise<string[]> {
    const partitions = await this.list();
    if (partitions.length === 0) return [];
    const created = sqlDialect(this.dataSource) === 'mysql' ? await this.ensureMysqlMonths(partitions, from, to) : await this.ensurePostgresMonths(partitions, from, to);
    if (created.length > 0) this.logger.log(`created log partitions ${created.join(', ')}`);
    return created;
  }

  /**
   * Takes every month partition that ends at or before `cutoff` (all its rows are older) out of
   * logs; answers how many rows went, counted exactly for small months and from the statistics
   * for big ones. The partial month, and older rows outside month partitions, are left to the
   * caller's chunked delete.
   *
   * Taking a month out is a change of the catalogue only: PostgreSQL detaches the partition,
   * MySQL exchanges it with an empty table. Deleting its files comes after, in the background:
   * on a disk that discards freed blocks that takes about a second per gigabyte, and dropping
   * the partition itself would hold the lock on logs that long, and the call with it. A month
   * taken out whose files a crash left behind goes at the next call or the hourly job
   * (reclaimDetachedMonths).
   */
  async dropMonthsBefore(cutoff: number): Promise<number> {
    const dropped = (await this.list()).filter((partition) => partition.to !== null && partition.to <= cutoff);
    if (dropped.length === 0) return 0;
    let removed = 0;
    for (const partition of dropped) removed += await this.rowsOf(partition);
    if (sqlDialect(this.dataSource) === 'mysql') await this.detachMysqlMonths(dropped);
    else await this.detachPostgresMonths(dropped);
    this.logger.log(`took log partitions ${dropped.map((partition) => partition.name).join(', ')} out of logs (about ${removed} rows)`);
    void this.reclaimDetachedMonths();
    return removed;
  }

  /** Deletes the months taken out of logs (their tables, and with them their files); one deletion at a time. */
  reclaimDetachedMonths(): Promise<void> {
    this.reclaiming = this.reclaiming.then(() =>
      this.dropDetachedTables().catch((error: unknown) => this.logger.error(`deleting the log months taken out failed, the hourly job tries again: ${error instanceof Error ? error.message : String(error)}`)),
    );
    return this.reclaiming;
  }

  private async dropDetachedTables(): Promise<void> {
    const dialect = sqlDialect(this.dataSource);
    if (dialect === 'sqlite') return;
    // Underscores escaped: LIKE would read them as any character.
    const pattern = `${DETACHED_MONTH_PREFIX}logs_p`.replace(/_/g, '\\_') + '%';
    const tables: Array<{ name: string }> =
      dialect === 'mysql'
        ? await this.dataSource.query(`SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ?`, [pattern])
        : await this.dataSource.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE $1`, [pattern]);
    for (const { name } of tables) {
      await this.dataSource.query(`DROP TABLE IF EXISTS ${name}`);
      this.logger.log(`deleted ${name}`);
    }
  }

  /** Detached and renamed in one transaction: a month is either a partition or waiting to be deleted. */
  private async detachPostgresMonths(dropped: LogPartition[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      for (const { name } of dropped) {
        // Left over from a crash before its files were deleted (rows put back into that month since).
        await manager.query(`DROP TABLE IF EXISTS ${DETACHED_MONTH_PREFIX}${name}`);
        await manager.query(`ALTER TABLE logs DETACH PARTITION ${name}`);
        await manager.query(`ALTER TABLE ${name} RENAME TO ${DETACHED_MONTH_PREFIX}${name}`);
      }
    });
  }

  /**
   * Each month's rows swap places with an empty table of logs' shape (a rename of files), and
   * the emptied partitions are dropped together. MySQL's DDL commits statement by statement: a
   * crash in between leaves an empty partition, dropped with the next month, or a table the
   * reclaiming deletes.
   */
  private async detachMysqlMonths(dropped: LogPartition[]): Promise<void> {
    for (const { name } of dropped) {
      const table = `${DETACHED_MONTH_PREFIX}logs_${name}`;
      await this.dataSource.query(`DROP TABLE IF EXISTS ${table}`);
      await this.dataSource.query(`CREATE TABLE ${table} LIKE logs`);
      await this.dataSource.query(`ALTER TABLE ${table} REMOVE PARTITIONING`);
      await this.dataSource.query(`ALTER TABLE logs EXCHANGE PARTITION ${name} WITH TABLE ${table}`);
    }
    await this.dataSource.query(`ALTER TABLE logs DROP PARTITION ${dropped.map((partition) => partition.name).join(', ')}`);
  }

  private async rowsOf(partition: LogPartition): Promise<number> {
    if (partition.estimatedRows >= EXACT_COUNT_BELOW) return partition.estimatedRows;
    const table = sqlDialect(this.dataSource) === 'mysql' ? `logs PARTITION (${partition.name})` : partition.name;
    const [row] = await this.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number(row?.n ?? 0);
  }

  /**
   * MySQL ranges are contiguous: the first partition takes everything older than its month and
   * `pmax` everything after the last. Later months are split off `pmax`, earlier ones off the
   * first partition (REORGANIZE copies only the rows of the partition it splits).
   */
  private async ensureMysqlMonths(partitions: LogPartition[], from: number, to: number): Promise<string[]> {
    const months = partitions.filter((partition) => partition.to !== null);
    const created: number[] = [];
    const first = months[0];
    const last = months[months.length - 1];
    if (first?.to != null) {
      const firstMonth = addMonths(first.to, -1);
      const earlier = monthsFromTo(from, to).filter((month) => month < firstMonth);
      if (earlier.length > 0) {
        const older = monthsFromTo(earlier[0], addMonths(firstMonth, -1));
        const definitions = [...mysqlMonthPartitions(older), `PARTITION ${first.name} VALUES LESS THAN (${first.to})`];
        await this.dataSource.query(`ALTER TABLE logs REORGANIZE PARTITION ${first.name} INTO (${definitions.join(', ')})`);
        created.push(...older);
      }
    }
    const lastEnd = last?.to ?? monthStart(from);
    if (monthStart(to) >= lastEnd) {
      const later = monthsFromTo(lastEnd, to);
      const definitions = [...mysqlMonthPartitions(later), `PARTITION ${MYSQL_CATCH_ALL_PARTITION} VALUES LESS THAN MAXVALUE`];
      await this.dataSource.query(`ALTER TABLE logs REORGANIZE PARTITION ${MYSQL_CATCH_ALL_PARTITION} INTO (${definitions.join(', ')})`);
      created.push(...later);
    }
    return created.map(monthPartitionName);
  }

  /**
   * PostgreSQL months may have gaps (the default partition takes those rows). A month whose rows
   * already sit in the default partition is created with the default detached and those rows
   * moved, in one transaction: PostgreSQL refuses a partition whose rows the default holds.
   */
  private async ensurePostgresMonths(partitions: LogPartition[], from: number, to: number): Promise<string[]> {
    const covered = (month: number) => partitions.some((partition) => partition.from !== null && partition.to !== null && partition.from <= month && month < partition.to);
    const missing = monthsFromTo(from, to).filter((month) => !covered(month));
    for (const month of missing) {
      const end = addMonths(month, 1);
      const inDefault = await queryAnyDialect(this.dataSource, `SELECT 1 FROM ${POSTGRES_DEFAULT_PARTITION} WHERE created_at >= ? AND created_at < ? LIMIT 1`, [month, end]);
      if (inDefault.length === 0) {
        await this.dataSource.query(postgresMonthPartition(month));
        continue;
      }
      await this.dataSource.transaction(async (manager) => {
        await manager.query(`ALTER TABLE logs DETACH PARTITION ${POSTGRES_DEFAULT_PARTITION}`);
        await manager.query(postgresMonthPartition(month));
        await manager.query(`INSERT INTO logs SELECT * FROM ${POSTGRES_DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2`, [month, end]);
        await manager.query(`DELETE FROM ${POSTGRES_DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2`, [month, end]);
        await manager.query(`ALTER TABLE logs ATTACH PARTITION ${POSTGRES_DEFAULT_PARTITION} DEFAULT`);
      });
    }
    return missing.map((month) => `logs_${monthPartitionName(month)}`);
  }
}
