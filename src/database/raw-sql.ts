import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DatabaseType } from '../config/app-config';
import { SQLITE_PRAGMAS } from './data-source-options';
import { nativeSql, sqlDialect } from './dialect';
import { ServerWriter } from './server-writer';
import { guardedWriter, statementCache, type SqliteConnection } from './sqlite-statements';
import { SqliteWriter } from './sqlite-writer';

export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** An UPDATE guarded by its WHERE clause, and the statement that takes it back. */
export interface GuardedUpdate extends Statement {
  undo: Statement;
}

/** Guarded updates that apply all or none, and what to write when they apply (the hold journal's rows). */
export interface GuardedGroup {
  updates: GuardedUpdate[];
  record: Statement[];
}

/**
 * Plain SQL for the relay's hot path and the settlement writer, where TypeORM's query
 * building costs several times the statement itself. On SQLite they run in a worker thread
 * on a connection of its own (SqliteWriter), as cached prepared statements, except a hold
 * while the relay is quiet (see applyGuarded); on MySQL and PostgreSQL through the pool.
 * Statements are written with `?` placeholders; on PostgreSQL they are numbered ($1, $2, …)
 * as they are sent, each text once (see native).
 */
@Injectable()
export class RawSql implements OnApplicationShutdown {
  private readonly writer?: SqliteWriter;
  /** MySQL and PostgreSQL: the writes, each transaction in one round trip. */
  private readonly serverWriter?: ServerWriter;
  /** SQLite: applyGuarded on TypeORM's connection, for a lone hold (see applyGuarded). */
  private readonly applyGuardedHere?: (groups: GuardedGroup[]) => number[];
  /** When holds last went to the writer thread (performance.now()). */
  private lastHoldSentAt = 0;
  /**
   * How the hot path's multi-row inserts (log rows, hold journal) begin. On SQLite `INSERT OR
   * FAIL`: a plain INSERT inside a transaction keeps a statement journal, the prior content of
   * every page it touches (spilled to a temp file past 64 KiB), so that it alone can be undone
   * on a constraint failure. Ours never need that, since any failure rolls the whole
   * transaction back; for a batch of 100 log rows it was ~45 pages written twice more.
   */
  private readonly insertInto: string;
  /** insertSql's and upsertAddingSql's statements: per table (and form), by row count. */
  private readonly insertStatements = new Map<string, string[]>();
  private readonly dialect: DatabaseType;
  /** PostgreSQL: each statement text with its placeholders numbered, by the text written with `?`. */
  private readonly numbered = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {
    this.dialect = sqlDialect(dataSource);
    this.insertInto = this.dialect === 'sqlite' ? 'INSERT OR FAIL INTO' : 'INSERT INTO';
    if (this.dialect !== 'sqlite') {
      this.serverWriter = ServerWriter.open(dataSource);
      return;
    }
    this.writer = new SqliteWriter(String(dataSource.options.database), SQLITE_PRAGMAS);
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    this.applyGuardedHere = guardedWriter(connection, statementCache(connection).run);
  }

  /** After the settlements' last flush (beforeApplicationShutdown), so nothing queued is cut off. */
  async onApplicationShutdown(): Promise<void> {
    await this.writer?.close();
    await this.serverWriter?.close();
  }

  /**
   * Applies each group's updates in order, all or none: at the first one that changes no row
   * (its guard failed) the group's earlier ones are taken back. Answers, per group, the index
   * of the update that failed, or -1 when all applied. A group that applied writes its record.
   * Everything is one transaction, on every database: the takes and their records commit
   * together or not at all. `lone`: the one hold the relay asked for in a while (see below).
   */
  async applyGuarded(groups: GuardedGroup[], lone = false): Promise<number[]> {
    if (this.writer) {
      // When the relay is quiet (a lone hold, the writer thread idle, no batch sent to it for a
      // while) the hold runs right here, at once: the thread hop (two wake-ups) would be most
      // of its wait. Under load holds go to the thread, so the hot writes keep one connection
      // and its page cache, which each commit from another connection empties. (On TypeORM's
      // connection a statement would join an open TypeORM transaction; none is open here,
      // since transaction bodies await only database calls, see Transactions.)
      const now = performance.now();
      if (lone && this.writer.idle && now - this.lastHoldSentAt > QUIET_MS) return this.applyGuardedHere!(groups);
      this.lastHoldSentAt = now;
      return this.writer.applyGuarded(groups);
    }
    if (groups.length === 0) return [];
    // In order, as on SQLite: when quota runs short, the first asked is the first served.
    return this.serverWriter!.applyGuarded(groups);
  }

  /** Runs the statements in one transaction. */
  async runInTransaction(statements: Statement[]): Promise<void> {
    if (this.writer) return this.writer.runInTransaction(statements);
    await this.serverWriter!.runInTransaction(statements);
  }

  /**
   * `INSERT INTO table (columns) VALUES (?, …), …` for `rows` rows, built once per table and
   * row count (each table's hot-path insert has one column list). The prepared-statement cache
   * is keyed by this text, and a 100-row log insert built afresh is a 4 KB string hashed whole
   * on every lookup.
   */
  insertSql(table: string, columns: readonly string[], rows: number): string {
    return this.cachedSql(table, rows, () => insertValues(this.insertInto, table, columns.map((column) => this.quote(column)), rows));
  }

  /**
   * insertSql's rows, added to the row already there when the key exists: `summed` columns
   * grow by the new values (ON CONFLICT on SQLite and PostgreSQL, ON DUPLICATE KEY on MySQL;
   * `key` is the unique key's columns, which ON CONFLICT needs named). Cached like insertSql.
   * PostgreSQL needs the old value named by its table: a bare column would be ambiguous beside `excluded`.
   */
  upsertAddingSql(table: string, columns: readonly string[], rows: number, key: readonly string[], summed: readonly string[]): string {
    return this.cachedSql(`${table}\u0000upsert`, rows, () => {
      const q = (name: string) => this.quote(name);
      const onConflict =
        this.dialect === 'mysql'
          ? ` ON DUPLICATE KEY UPDATE ${summed.map((c) => `${q(c)} = ${q(c)} + VALUES(${q(c)})`).join(', ')}`
          : ` ON CONFLICT (${key.map(q).join(', ')}) DO UPDATE SET ${summed.map((c) => `${q(c)} = ${table}.${q(c)} + excluded.${q(c)}`).join(', ')}`;
      // A plain INSERT: SQLite's OR FAIL would take the place of the upsert's conflict clause.
      return insertValues('INSERT INTO', table, columns.map(q), rows) + onConflict;
    });
  }

  /**
   * insertSql's rows, each skipped when its unique `key` (one column) is already taken: a
   * replayed copy writes nothing. ON CONFLICT DO NOTHING on SQLite and PostgreSQL; on MySQL a
   * no-op ON DUPLICATE KEY UPDATE (INSERT IGNORE would also swallow data errors). Cached like insertSql.
   */
  insertAbsentSql(table: string, columns: readonly string[], rows: number, key: string): string {
    return this.cachedSql(`${table}\u0000absent`, rows, () => {
      const onConflict = this.dialect === 'mysql' ? ` ON DUPLICATE KEY UPDATE ${this.quote(key)} = ${this.quote(key)}` : ' ON CONFLICT DO NOTHING';
      return insertValues('INSERT INTO', table, columns.map((column) => this.quote(column)), rows) + onConflict;
    });
  }

  /** Rows of a read that runs often off the request path (the settlement listeners), without TypeORM's per-query cost. */
  async select<Row>(sql: string, parameters: unknown[]): Promise<Row[]> {
    if (this.writer) return this.writer.select<Row>({ sql, parameters });
    return (await this.dataSource.query(this.native(sql), parameters)) as Row[];
  }

  /** Copies the SQLite write-ahead log into the database file (see SqliteCheckpointerService). */
  async checkpoint(): Promise<void> {
    await this.writer?.pragma('wal_checkpoint(PASSIVE)');
  }

  /**
   * Refreshes the query planner's statistics where SQLite thinks they are stale, reading at
   * most a sample of each index (analysis_limit), so it takes milliseconds even on big tables.
   * Without statistics SQLite may pick a poor index for combined log filters.
   */
  async optimize(): Promise<void> {
    await this.writer?.pragma('analysis_limit = 1000');
    await this.writer?.pragma('optimize');
  }

  /** Quotes a column or table name for the current dialect (`group` and `key` are reserved words in MySQL and PostgreSQL). */
  quote(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  /** The statement as the driver takes it: on PostgreSQL numbered once per text, which the hot path repeats. */
  private native(sql: string): string {
    if (this.dialect !== 'postgres') return sql;
    let numbered = this.numbered.get(sql);
    if (numbered === undefined) {
      // Texts repeat (a few per table and row count); the bound only guards against a caller that builds them freely.
      if (this.numbered.size >= NUMBERED_STATEMENTS_KEPT) this.numbered.clear();
      this.numbered.set(sql, (numbered = nativeSql(this.dialect, sql)));
    }
    return numbered;
  }

  /** A statement's text per kind (table, or table and form) and row count, built once. */
  private cachedSql(kind: string, rows: number, build: () => string): string {
    let byRowCount = this.insertStatements.get(kind);
    if (!byRowCount) this.insertStatements.set(kind, (byRowCount = []));
    return (byRowCount[rows] ??= build());
  }
}

/** How many numbered statement texts RawSql keeps on PostgreSQL before it starts over. */
const NUMBERED_STATEMENTS_KEPT = 4096;
/** How long after the last hold sent to SQLite's writer thread the relay counts as quiet again. */
const QUIET_MS = 10;

/**
 * A map of rows by id in ascending id order. Writers that lock several tokens or users in one
 * transaction (holds, settlements) take them in this order, so two of them never wait on each other in a circle.
 */
export function inLockOrder<T>(rows: Map<number, T>): Array<[number, T]> {
  return [...rows].sort((a, b) => a[0] - b[0]);
}

/** `verb table (columns) VALUES (?, …), …` for `rows` rows of already quoted columns. */
function insertValues(verb: string, table: string, quotedColumns: readonly string[], rows: number): string {
  const row = `(${quotedColumns.map(() => '?').join(', ')})`;
  return `${verb} ${table} (${quotedColumns.join(', ')}) VALUES ${new Array(rows).fill(row).join(', ')}`;
}

