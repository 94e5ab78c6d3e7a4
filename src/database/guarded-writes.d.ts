import type { GuardedGroup, Statement } from './raw-sql';

/** The part of a better-sqlite3 connection guardedWriter uses. */
export interface TransactionalConnection {
  transaction<A extends unknown[], T>(work: (...args: A) => T): { immediate(...args: A): T };
}

export function guardedWriter(db: TransactionalConnection, run: (statement: Statement) => number): (groups: GuardedGroup[], combined?: GuardedGroup) => number[];
