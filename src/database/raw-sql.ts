import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface PreparedStatement {
  /** Anonymous parameters as one array: spreading a multi-row insert's thousands of values costs more. */
  run(parameters: unknown[]): { changes: number };
}

interface BetterSqliteConnection {
  prepare(sql: string): PreparedStatement;
  pragma(sql: string): unknown;
  transaction<A extends unknown[], T>(work: (...args: A) => T): (...args: A) => T;
}

export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** An UPDATE guarded by its WHERE clause, and the statement that takes it back. */
export interface GuardedUpdate extends Statement {
  undo: Statement;
}

/** Statements that record what applyGuarded did, given its answer (per group, -1 = applied). */
export type RecordOutcome = (failures: number[]) => Statement[];

/**
 * Plain SQL for the relay's hot path and the settlement writer, where TypeORM's query
 * building costs several times the statement itself. On SQLite statements run as cached
 * prepared statements on TypeORM's own connection, synchronously; on MySQL through the pool.
 *
 * SQLite caveat: TypeORM shares that one connection, so a statement run while a TypeORM
 * transaction is open would join it. That cannot happen as long as transaction bodies await
 * only database calls (see Transactions), because the SQLite driver never yields mid-query.
 */
@Injectable()
export class RawSql {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly sqlite?: BetterSqliteConnection;
  private readonly applyGuardedOnSqlite?: (groups: GuardedUpdate[][], combined: GuardedUpdate[] | undefined, record: RecordOutcome | undefined) => number[];
  private readonly runAll?: (statements: Statement[]) => void;

  constructor(private readonly dataSource: DataSource) {
    if (dataSource.options.type !== 'better-sqlite3') return;
    const sqlite = (dataSource.driver as unknown as { databaseConnection: BetterSqliteConnection }).databaseConnection;
    this.sqlite = sqlite;
    // Inside one transaction, so a group's undo commits together with it (or not at all);
    // applyGuardedOneByOne is its twin for MySQL, where each statement is awaited.
    const applyInOrder = (updates: GuardedUpdate[]): number => {
      for (let index = 0; index < updates.length; index++) {
        if (this.runSqlite(updates[index]) > 0) continue;
        for (let earlier = index - 1; earlier >= 0; earlier--) this.runSqlite(updates[earlier].undo);
        return index;
      }
      return -1;
    };
    this.applyGuardedOnSqlite = sqlite.transaction((groups: GuardedUpdate[][], combined: GuardedUpdate[] | undefined, record: RecordOutcome | undefined) => {
      const failures = combined && applyInOrder(combined) < 0 ? groups.map(() => -1) : groups.map(applyInOrder);
      if (record) for (const statement of record(failures)) this.runSqlite(statement);
      return failures;
    });
    this.runAll = sqlite.transaction((statements: Statement[]) => {
      for (const statement of statements) this.runSqlite(statement);
    });
  }

  /**
   * Applies each group's updates in order, all or none: at the first one that changes no row
   * (its guard failed) the group's earlier ones are taken back. Answers, per group, the index
   * of the update that failed, or -1 when all applied.
   *
   * `combined`, when given, does the work of all groups at once (their amounts summed per
   * row): tried first, and when every guard holds the groups need not run one by one.
   *
   * `record`, when given, turns the outcome into statements written with it (the hold journal).
   * On SQLite everything is one transaction (one commit); on MySQL each update commits by
   * itself and the record follows at once in its own transaction.
   */
  async applyGuarded(groups: GuardedUpdate[][], combined?: GuardedUpdate[], record?: RecordOutcome): Promise<number[]> {
    if (this.applyGuardedOnSqlite) return this.applyGuardedOnSqlite(groups, combined, record);
    let failures: number[];
    if (combined && (await this.applyGuardedOneByOne(combined)) < 0) failures = groups.map(() => -1);
    else {
      // In order, as on SQLite: when quota runs short, the first asked is the first served.
      failures = [];
      for (const updates of groups) failures.push(await this.applyGuardedOneByOne(updates));
    }
    const recorded = record ? record(failures) : [];
    if (recorded.length > 0) await this.runInTransaction(recorded);
    return failures;
  }

  /** Runs the statements in one transaction. */
  async runInTransaction(statements: Statement[]): Promise<void> {
    if (this.runAll) return this.runAll(statements);
    await this.dataSource.transaction(async (manager) => {
      for (const statement of statements) await manager.query(statement.sql, statement.parameters);
    });
  }

  /** Copies the SQLite write-ahead log into the database file (see SqliteCheckpointerService). */
  checkpoint(): void {
    this.sqlite?.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Quotes a column or table name for the current dialect (`group` is a reserved word in MySQL). */
  quote(name: string): string {
    return this.dataSource.driver.escape(name);
  }

  /** MySQL's twin of the SQLite loop in the constructor: each update commits by itself, so the undo is its own statement. */
  private async applyGuardedOneByOne(updates: GuardedUpdate[]): Promise<number> {
    for (let index = 0; index < updates.length; index++) {
      if ((await this.runOnPool(updates[index])) > 0) continue;
      for (let earlier = index - 1; earlier >= 0; earlier--) await this.runOnPool(updates[earlier].undo);
      return index;
    }
    return -1;
  }

  /** Runs one UPDATE on a pooled MySQL connection and answers how many rows it changed. */
  private async runOnPool(statement: Statement): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(statement.sql, statement.parameters, true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  private runSqlite({ sql, parameters }: Statement): number {
    let prepared = this.statements.get(sql);
    if (!prepared) this.statements.set(sql, (prepared = this.sqlite!.prepare(sql)));
    return prepared.run(parameters).changes;
  }
}
