import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { buildLogDataSourceOptions } from './data-source-options';
import { describeDatabaseError } from './database-unavailable';
import { RawSql } from './raw-sql';

/** As TypeORM tries the main database at start (retryAttempts, retryDelay): a log server starting beside the gateway gets ~30 s. */
const CONNECT_ATTEMPTS = 10;
const CONNECT_RETRY_MS = 3000;

/**
 * Where the usage logs and their rollups (quota_data) are read and written: the main database,
 * or the separate one LOG_SQL_DSN names (`separate`). Log reads, retention and the rollups go
 * through `dataSource` and `sql`; the ledger's writes do not (see LogWriter: with a separate
 * database they go through the main database's outbox, in the balance's own transaction).
 */
export class LogDatabase implements OnApplicationShutdown {
  constructor(
    readonly dataSource: DataSource,
    readonly sql: RawSql,
    readonly separate: boolean,
  ) {}

  /** The main database's connection when LOG_SQL_DSN is not set, else a connection of its own, migrated. */
  static async open(config: AppConfig, main: DataSource, mainSql: RawSql): Promise<LogDatabase> {
    if (!config.logDatabase) return new LogDatabase(main, mainSql, false);
    const options = buildLogDataSourceOptions(config.logDatabase);
    for (let attempt = 1; ; attempt++) {
      try {
        const dataSource = await new DataSource(options).initialize();
        return new LogDatabase(dataSource, new RawSql(dataSource), true);
      } catch (error) {
        if (attempt >= CONNECT_ATTEMPTS) throw error;
        new Logger(LogDatabase.name).error(`the log database (LOG_SQL_DSN) did not answer, attempt ${attempt} of ${CONNECT_ATTEMPTS}: ${describeDatabaseError(error)}`);
        await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_MS));
      }
    }
  }

  /** After the last outbox drain and rollup flush (both run in beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    if (!this.separate) return;
    await this.sql.onApplicationShutdown();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
