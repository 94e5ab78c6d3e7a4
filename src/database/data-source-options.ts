import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { MIGRATIONS } from '../../migrations';

/** Both dialects share entities and migrations; nothing is ever synchronised from the entities. */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: ['error' as const, 'migration' as const],
  };
  if (config.database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.database.mysqlUrl,
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
    prepareDatabase: (db: { pragma: (sql: string) => unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      // Checkpoints run once a second instead (SqliteCheckpointerService).
      db.pragma('wal_autocheckpoint = 0');
      db.pragma('journal_size_limit = 67108864');
    },
  };
}
