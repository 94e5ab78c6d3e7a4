import type { TypeOverrides } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig, DatabaseLocation } from '../config/app-config';
import { LOG_DATABASE_MIGRATIONS, MIGRATIONS } from '../../migrations';
import { LogEntity } from '../modules/logs/entities/log.entity';
import { QuotaDataDailyEntity, QuotaDataEntity } from '../modules/data/entities/quota-data.entity';

/** Every SQLite connection's settings: TypeORM's and the relay's writer thread's (SqliteWriter). */
export const SQLITE_PRAGMAS: readonly string[] = [
  'busy_timeout = 5000',
  'synchronous = NORMAL',
  // Checkpoints run once a second instead (SqliteCheckpointerService).
  'wal_autocheckpoint = 0',
  'journal_size_limit = 67108864',
];

interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): unknown;
}

/**
 * TypeORM begins its SQLite transactions DEFERRED: the write lock is taken at the first write.
 * With a second connection writing (SqliteWriter), a transaction that read first would then be
 * refused at once (SQLITE_BUSY_SNAPSHOT: another connection committed since its read), where
 * waiting cannot help. Begun IMMEDIATE, it takes the lock up front, waiting its turn.
 */
function beginImmediate(db: SqliteConnection): void {
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => prepare(sql === 'BEGIN TRANSACTION' ? 'BEGIN IMMEDIATE TRANSACTION' : sql);
}

/** PostgreSQL's type id of BIGINT (int8): COUNT(*) and our quota columns. */
const PG_INT8 = 20;

/**
 * How our PostgreSQL connections read values. pg hands BIGINT back as a string, since it may
 * exceed a JS number; quota stays below 2^53 (MAX_QUOTA), so like MySQL's supportBigNumbers
 * it reads as a number when exact, and stays a string only past that. SUM() (numeric) stays a
 * string, as MySQL's DECIMAL does, and the code reading it converts it.
 */
function postgresTypes(): TypeOverrides {
  // pg loads only for a PostgreSQL database, as TypeORM loads its drivers: other gateways never hold it (issue 32).
  const pg = require('pg') as typeof import('pg');
  const types = new pg.TypeOverrides();
  types.setTypeParser(PG_INT8, (text: string) => {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  });
  return types;
}

/** The dialects share entities and migrations; nothing is ever synchronised from the entities. */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  return connectionOptions(config.database, MIGRATIONS);
}

/**
 * The separate log database's connection (LOG_SQL_DSN): only the usage logs and their rollups
 * live there, with migrations of their own (LOG_DATABASE_MIGRATIONS).
 */
export function buildLogDataSourceOptions(location: DatabaseLocation): DataSourceOptions {
  return { ...connectionOptions(location, LOG_DATABASE_MIGRATIONS), entities: [LogEntity, QuotaDataEntity, QuotaDataDailyEntity] };
}

function connectionOptions(location: DatabaseLocation, migrations: DataSourceOptions['migrations']): DataSourceOptions {
  const common = {
    migrations,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: ['error' as const, 'migration' as const],
  };
  if (location.type === 'postgres') {
    // A server that does not answer fails the request after 10 s, like mysql2's connectTimeout (pg would wait forever).
    return { ...common, type: 'postgres', url: location.url, extra: { max: 20, connectionTimeoutMillis: 10_000, types: postgresTypes() } };
  }
  if (location.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: location.url,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      extra: { connectionLimit: 20 },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: location.sqlitePath,
    enableWAL: true,
    prepareDatabase: (db: SqliteConnection) => {
      for (const pragma of SQLITE_PRAGMAS) db.pragma(pragma);
      beginImmediate(db);
    },
  };
}
