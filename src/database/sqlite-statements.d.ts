import type { GuardedGroup, Statement } from './raw-sql';

/** The part of a better-sqlite3 connection these use (the project has no types for it). */
export interface SqliteConnection {
  prepare(sql: string): { run(parameters: unknown[]): { changes: number }; all(parameters: unknown[]): unknown[] };
  transaction<A extends unknown[], T>(work: (...args: A) => T): { immediate(...args: A): T };
}

export function statementCache(db: SqliteConnection): { run(statement: Statement): number; all(statement: Statement): unknown[] };

export function guardedWriter(db: SqliteConnection, run: (statement: Statement) => number): (groups: GuardedGroup[]) => number[];
