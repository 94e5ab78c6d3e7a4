import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs work in a database transaction. SQLite has one shared connection in TypeORM, so two
 * transactions started at once would interleave on it; there they wait in line instead.
 *
 * The work must await nothing but database calls (hash passwords, call networks before):
 * on SQLite any other wait lets statements of unrelated requests join the open transaction.
 */
@Injectable()
export class Transactions {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type !== 'better-sqlite3') return this.dataSource.transaction(work);
    const result = this.tail.then(() => this.dataSource.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
