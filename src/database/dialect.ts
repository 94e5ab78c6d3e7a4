import { DataSource, EntityManager } from 'typeorm';
import { LIKE_ESCAPE } from '../common/http/pagination';
import type { DatabaseType } from '../config/app-config';

/**
 * Which of the three databases a connection speaks, from TypeORM's driver name. The raw SQL
 * in this project is written once with `?` placeholders and double-quoted identifiers only
 * where a name is reserved (through `driver.escape`); what differs per dialect is decided here.
 */
export function sqlDialect(source: DataSource | EntityManager): DatabaseType {
  const type = (source instanceof DataSource ? source : source.connection).options.type;
  if (type === 'better-sqlite3') return 'sqlite';
  if (type === 'postgres') return 'postgres';
  return 'mysql';
}

/**
 * `?` placeholders as PostgreSQL's `$1, $2, …`. A `?` inside a quoted string or identifier
 * is text and stays (none of our statements has one, but a literal must never be renumbered).
 */
export function numberedPlaceholders(sql: string): string {
  const segments = placeholderSegments(sql);
  let out = segments[0];
  for (let index = 1; index < segments.length; index++) out += `$${index}${segments[index]}`;
  return out;
}

/**
 * The text around each `?` placeholder (outside quotes, as numberedPlaceholders reads them):
 * one more segment than there are placeholders, the placeholders standing between them.
 */
export function placeholderSegments(sql: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let quote = '';
  for (let at = 0; at < sql.length; at++) {
    const character = sql[at];
    if (quote) {
      if (character === quote) quote = '';
    } else if (character === "'" || character === '"' || character === '`') {
      quote = character;
    } else if (character === '?') {
      segments.push(sql.slice(start, at));
      start = at + 1;
    }
  }
  segments.push(sql.slice(start));
  return segments;
}

/** The statement as the connection's driver takes it: numbered placeholders on PostgreSQL, `?` elsewhere. */
export function nativeSql(dialect: DatabaseType, sql: string): string {
  return dialect === 'postgres' ? numberedPlaceholders(sql) : sql;
}

/**
 * A raw statement with `?` placeholders on any of the three databases, inside a transaction
 * when given its manager. For statements off the hot path; the relay's go through RawSql.
 */
export function queryAnyDialect<Row = unknown>(source: DataSource | EntityManager, sql: string, parameters: unknown[] = []): Promise<Row[]> {
  return source.query(nativeSql(sqlDialect(source), sql), parameters) as Promise<Row[]>;
}

/**
 * `LIKE` as the other two databases compare: SQLite's and MySQL's (utf8mb4_unicode_ci) ignore
 * case, PostgreSQL's does not, so the search boxes use ILIKE there.
 */
export function caseInsensitiveLike(dialect: DatabaseType): string {
  return dialect === 'postgres' ? 'ILIKE' : 'LIKE';
}

/** A query builder's `column LIKE :parameter ESCAPE '!'` (a likeContains pattern), ignoring case on every database. */
export function likeCondition(source: DataSource | EntityManager, column: string, parameter: string): string {
  return `${column} ${caseInsensitiveLike(sqlDialect(source))} :${parameter} ${LIKE_ESCAPE}`;
}
