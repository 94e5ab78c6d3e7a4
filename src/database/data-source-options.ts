import { TypeOverrides } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { MIGRATIONS } from '../../migrations';

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
  const types = new TypeOverrides();
  types.setTypeParser(PG_INT8, (text: string) => {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  });
  return types;
}

/** The dialects share entities and migrations; nothing is ever synchronised from the entities. */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: ['error' as const, 'migration' as const],
  };
  if (config.database.type === 'postgres') {
    // A server that does not answer fails the request after 10 s, like mysql2's connectTimeout (pg would wait forever).
    return { ...common, type: 'postgres', url: config.database.url, extra: { max: 20, connectionTimeoutMillis: 10_000, types: postgresTypes() } };
  }
  if (config.database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.database.url,
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
    database: config.database.sqlitePath,
    enableWAL: true,
    prepareDatabase: (db: SqliteConnection) => {
      for (const pragma of SQLITE_PRAGMAS) db.pragma(pragma);
      beginImmediate(db);
    },
  };
}
