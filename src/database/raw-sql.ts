import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface PreparedStatement {
  run(...parameters: unknown[]): { changes: number };
}

interface BetterSqliteConnection {
  prepare(sql: string): PreparedStatement;
  transaction<T>(work: () => T): () => T;
}

export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** An UPDATE guarded by its WHERE clause, and the statement that takes it back. */
export interface GuardedUpdate extends Statement {
  undo: Statement;
}

/** Thrown inside a SQLite transaction to roll it back at the guard that failed. */
class GuardFailed extends Error {
  constructor(readonly index: number) {
    super('guard failed');
  }
}

/**
 * Single SQL statements for the relay's hot path, where TypeORM's query building costs
 * several times the statement itself. On SQLite they run as cached prepared statements on
 * TypeORM's own connection; on MySQL through a pooled connection.
 *
 * SQLite caveat: TypeORM shares that one connection, so a statement run while a TypeORM
 * transaction is open would join it. That cannot happen as long as transaction bodies await
 * only database calls (see Transactions), because the SQLite driver never yields mid-query.
 */
@Injectable()
export class RawSql {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly sqlite?: BetterSqliteConnection;

  constructor(private readonly dataSource: DataSource) {
    if (dataSource.options.type === 'better-sqlite3') {
      this.sqlite = (dataSource.driver as unknown as { databaseConnection: BetterSqliteConnection }).databaseConnection;
    }
  }

  /** Runs one INSERT, UPDATE or DELETE and answers how many rows it changed. */
  async run(sql: string, parameters: unknown[]): Promise<number> {
    if (this.sqlite) return this.runSqlite(this.sqlite, sql, parameters);
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, parameters, true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /**
   * Applies the updates in order, all or none: at the first one that changes no row (its
   * guard failed) the earlier ones are taken back, and its index is returned; -1 when all
   * applied. On SQLite that is one synchronous transaction (one commit); on MySQL each
   * update commits by itself and a failure runs the undo statements of the earlier ones.
   */
  async applyGuarded(updates: GuardedUpdate[]): Promise<number> {
    const sqlite = this.sqlite;
    if (sqlite) {
      try {
        sqlite.transaction(() => {
          updates.forEach((update, index) => {
            if (this.runSqlite(sqlite, update.sql, update.parameters) === 0) throw new GuardFailed(index);
          });
        })();
        return -1;
      } catch (error) {
        if (error instanceof GuardFailed) return error.index;
        throw error;
      }
    }
    for (let index = 0; index < updates.length; index++) {
      if ((await this.run(updates[index].sql, updates[index].parameters)) > 0) continue;
      for (let earlier = index - 1; earlier >= 0; earlier--) await this.run(updates[earlier].undo.sql, updates[earlier].undo.parameters);
      return index;
    }
    return -1;
  }

  private runSqlite(connection: BetterSqliteConnection, sql: string, parameters: unknown[]): number {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = connection.prepare(sql)));
    return statement.run(...parameters).changes;
  }

  /** Quotes a column or table name for the current dialect (`group` is a reserved word in MySQL). */
  quote(name: string): string {
    return this.dataSource.driver.escape(name);
  }
}
