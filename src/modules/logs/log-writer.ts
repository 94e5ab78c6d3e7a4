import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { LogDatabase } from '../../database/log-database';
import { RawSql, Statement } from '../../database/raw-sql';
import { LogEntity, LOG_TYPE_UNKNOWN } from './entities/log.entity';
import { LogOutboxEntity } from './entities/log-outbox.entity';

/** A log row before it has an id. */
export type LogRow = Omit<LogEntity, 'id'>;
/** A row for the batched inserts: its subscription is the hold's, set by the batcher (0 for the wallet). */
export type BatchedLogRow = Omit<LogRow, 'subscription_id'> & { subscription_id?: number };
/** A row as callers give it: what they leave out takes the column's default. */
export type NewLogRow = Partial<LogRow> & Pick<LogRow, 'type' | 'user_id' | 'created_at'>;

/** Every column of a log row but its id, in the order the multi-row inserts list them. */
export const LOG_COLUMNS: readonly (keyof LogRow)[] = [
  'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'token_id', 'model_name', 'quota', 'prompt_tokens',
  'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'channel_name', 'group', 'ip', 'other', 'subscription_id',
];

/** The columns' defaults (as in the logs table), so an outboxed row carries every column. */
const LOG_ROW_DEFAULTS: LogRow = {
  user_id: 0, created_at: 0, type: LOG_TYPE_UNKNOWN, content: null, username: '', token_name: '', token_id: 0, model_name: '', quota: 0,
  prompt_tokens: 0, completion_tokens: 0, use_time: 0, is_stream: false, channel_id: 0, channel_name: '', group: '', ip: '', other: null,
  subscription_id: 0,
};

const LOG_INSERT_CHUNK = 100;

/** A row's values in LOG_COLUMNS order, as the raw inserts bind them. */
export function logColumnValues(row: BatchedLogRow): unknown[] {
  return pushColumnValues([], row);
}

/** Appends a row's values to `into`: a plain loop, since the settlement batches bind thousands per second. */
function pushColumnValues(into: unknown[], row: BatchedLogRow): unknown[] {
  for (const column of LOG_COLUMNS) into.push(column === 'is_stream' ? (row.is_stream ? 1 : 0) : column === 'subscription_id' ? (row.subscription_id ?? 0) : row[column]);
  return into;
}

/**
 * Where the ledger writes a log row, always in the main database and in the transaction that
 * moves the balance: into `logs` when the logs live there, else into `log_outbox`, from which
 * LogOutboxService copies it to the log database (LOG_SQL_DSN). Either way the row commits
 * with the money, or neither does.
 */
@Injectable()
export class LogWriter {
  constructor(
    private readonly logDatabase: LogDatabase,
    private readonly sql: RawSql,
    private readonly main: DataSource,
  ) {}

  /**
   * One row, inside the caller's transaction when its manager is given; answers the row's id
   * (with a separate log database, its outbox id, which the row keeps there).
   */
  async insert(row: NewLogRow, manager: EntityManager = this.main.manager): Promise<number> {
    const complete: LogRow = { ...LOG_ROW_DEFAULTS, ...row };
    const inserted = this.logDatabase.separate ? await manager.insert(LogOutboxEntity, { payload: JSON.stringify(complete) }) : await manager.insert(LogEntity, complete);
    return Number(inserted.identifiers[0]?.id ?? 0);
  }

  /**
   * Multi-row inserts of `rows` for a RawSql transaction on the main database (the settlement
   * batches): TypeORM's insert builder costs more per row than the write itself.
   */
  insertStatements(rows: readonly BatchedLogRow[]): Statement[] {
    const statements: Statement[] = [];
    for (let start = 0; start < rows.length; start += LOG_INSERT_CHUNK) {
      const chunk = rows.slice(start, start + LOG_INSERT_CHUNK);
      if (this.logDatabase.separate) {
        statements.push({ sql: this.sql.insertSql('log_outbox', ['payload'], chunk.length), parameters: chunk.map((row) => JSON.stringify(row)) });
        continue;
      }
      const parameters: unknown[] = [];
      for (const row of chunk) pushColumnValues(parameters, row);
      statements.push({ sql: this.sql.insertSql('logs', LOG_COLUMNS, chunk.length), parameters });
    }
    return statements;
  }
}
