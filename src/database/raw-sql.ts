import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface PreparedStatement {
  run(...parameters: unknown[]): { changes: number };
}

interface BetterSqliteConnection {
  prepare(sql: string): PreparedStatement;
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
    if (this.sqlite) {
      let statement = this.statements.get(sql);
      if (!statement) this.statements.set(sql, (statement = this.sqlite.prepare(sql)));
      return statement.run(...parameters).changes;
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, parameters, true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /** Quotes a column or table name for the current dialect (`group` is a reserved word in MySQL). */
  quote(name: string): string {
    return this.dataSource.driver.escape(name);
  }
}
