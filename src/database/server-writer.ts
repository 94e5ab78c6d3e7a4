import { createPool, type Pool as MysqlPool, type PoolConnection } from 'mysql2/promise';
import { escapeLiteral, type Pool as PgPool, type QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import type { MysqlConnectionOptions } from 'typeorm/driver/mysql/MysqlConnectionOptions';
import { placeholderSegments, sqlDialect } from './dialect';
import type { GuardedGroup, GuardedUpdate, Statement } from './raw-sql';

/** How many times a transaction the server rolled back as a deadlock victim is run in all. */
export const DEADLOCK_ATTEMPTS = 3;

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back and may run again. */
const PG_RETRYABLE = new Set(['40P01', '40001']);

/** MySQL's "deadlock found" and "lock wait timeout", PostgreSQL's deadlock: the transaction was rolled back and may run again. */
export function isDeadlock(error: unknown): boolean {
  const failed = error as { driverError?: { errno?: number; code?: unknown }; errno?: number; code?: unknown } | null;
  const errno = failed?.driverError?.errno ?? failed?.errno;
  const code = failed?.driverError?.code ?? failed?.code;
  return errno === 1213 || errno === 1205 || (typeof code === 'string' && PG_RETRYABLE.has(code));
}

/**
 * RawSql's writes on MySQL and PostgreSQL: each transaction goes to the server as one script,
 * in one round trip (two for guarded updates on MySQL), instead of a round trip per statement.
 * The hot rows (a busy token and its user) stay locked from a transaction's first update to its
 * commit, and every request's hold waits for them; a round trip per statement kept them locked
 * for several of the gateway's turns of the event loop and the server's scheduling, one after
 * the other. Sent whole, a transaction holds them for the server's own work alone.
 *
 * PostgreSQL takes the script as one simple query, which runs as one transaction, with the
 * values written into it as quoted literals (read as a bound parameter's text would be);
 * guarded updates run in a DO block. MySQL takes it on a small pool of its own, opened with
 * multipleStatements (TypeORM's pool keeps it off), mysql2 binding the values as it does for TypeORM.
 */
export abstract class ServerWriter {
  static open(dataSource: DataSource): ServerWriter {
    return sqlDialect(dataSource) === 'postgres' ? new PostgresWriter(dataSource) : new MysqlWriter(dataSource);
  }

  /** Runs the statements in one transaction. */
  abstract runInTransaction(statements: Statement[]): Promise<void>;

  /** RawSql.applyGuarded on a server: the groups in order, in one transaction. */
  abstract applyGuarded(groups: GuardedGroup[]): Promise<number[]>;

  abstract close(): Promise<void>;

  /** Runs `work` again when the server rolled its transaction back as a deadlock victim (two batches that lock the same rows in another order). */
  protected async retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      }
    }
  }
}

/** The custom setting a PostgreSQL guarded script leaves its answer in, for the statement after it. */
const PG_FAILURES_SETTING = 'gateway.guarded_failures';

class PostgresWriter extends ServerWriter {
  /** TypeORM's pool: plain pg, so a script goes out as a simple query. */
  private readonly pool: PgPool;

  constructor(dataSource: DataSource) {
    super();
    this.pool = (dataSource.driver as unknown as { master: PgPool }).master;
  }

  async runInTransaction(statements: Statement[]): Promise<void> {
    if (statements.length === 0) return;
    // Several statements in one simple query run as one transaction: a failure rolls them all back.
    const script = statements.map(pgInlined).join(';\n');
    await this.retryingDeadlocks(() => this.pool.query(script));
  }

  async applyGuarded(groups: GuardedGroup[]): Promise<number[]> {
    const script = pgGuardedScript(groups);
    const results = (await this.retryingDeadlocks(() => this.pool.query(script))) as unknown as QueryResult<{ failed: string }>[];
    return parseFailures(results[results.length - 1].rows[0].failed);
  }

  async close(): Promise<void> {
    // The pool is TypeORM's, closed with its connection.
  }
}

/**
 * A DO block that applies each group as RawSql.applyGuarded says (at the first update that
 * changes no row, the group's earlier ones are taken back and its record is not written),
 * then the statement that answers each group's failed index, or -1.
 */
export function pgGuardedScript(groups: GuardedGroup[]): string {
  const lines: string[] = [];
  groups.forEach((group, index) => {
    const label = `g${index}`;
    lines.push(`<<${label}>> BEGIN`);
    group.updates.forEach((update, position) => {
      lines.push(`${pgInlined(update)};`);
      const undo = group.updates.slice(0, position).reverse().map((earlier) => `${pgInlined(earlier.undo)}; `).join('');
      lines.push(`IF NOT FOUND THEN ${undo}failed := failed || ' ${position}'; EXIT ${label}; END IF;`);
    });
    for (const statement of group.record) lines.push(`${pgInlined(statement)};`);
    lines.push(`failed := failed || ' -1';`, `END ${label};`);
  });
  lines.push(`PERFORM set_config('${PG_FAILURES_SETTING}', failed, true);`);
  const body = `DECLARE failed text := ''; BEGIN\n${lines.join('\n')}\nEND`;
  // A dollar quote no value in the body contains.
  let tag = '$guarded$';
  for (let n = 1; body.includes(tag); n++) tag = `$guarded${n}$`;
  return `DO ${tag}${body}${tag};\nSELECT current_setting('${PG_FAILURES_SETTING}') AS failed`;
}

/** pgInlined's statement texts cut at their placeholders, by text: the hot path repeats a few texts. */
const pgSegments = new Map<string, string[]>();
/** How many texts pgSegments keeps before it starts over (a caller that builds texts freely must not grow it without end). */
const PG_SEGMENTS_KEPT = 4096;

/** The statement with its values written in as PostgreSQL literals. */
function pgInlined(statement: Statement): string {
  let segments = pgSegments.get(statement.sql);
  if (!segments) {
    if (pgSegments.size >= PG_SEGMENTS_KEPT) pgSegments.clear();
    pgSegments.set(statement.sql, (segments = placeholderSegments(statement.sql)));
  }
  if (segments.length - 1 !== statement.parameters.length) throw new Error(`${statement.parameters.length} values for ${segments.length - 1} placeholders: ${statement.sql}`);
  let out = segments[0];
  for (let index = 1; index < segments.length; index++) out += pgLiteral(statement.parameters[index - 1]) + segments[index];
  return out;
}

/**
 * A value as a quoted literal, which PostgreSQL types from where it stands, as it types a
 * bound parameter's text: numbers too, so a number bound to a text column stays valid.
 */
export function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  // Most text needs no escaping; escapeLiteral walks it character by character.
  if (typeof value === 'string') return value.includes("'") || value.includes('\\') ? escapeLiteral(value) : `'${value}'`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} to PostgreSQL`);
    return `'${value}'`;
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') return `'${value}'`;
  throw new Error(`cannot write a ${typeof value} value to PostgreSQL as a literal`);
}

/** The guarded scripts' answer, `' 0 -1 …'`: each group's failed index, or -1. */
function parseFailures(text: string): number[] {
  return text.trim().split(' ').map(Number);
}

/** The MySQL writer's connections: the relay's writes are batched, so a few suffice. */
const MYSQL_WRITER_CONNECTIONS = 4;

class MysqlWriter extends ServerWriter {
  private readonly pool: MysqlPool;

  constructor(dataSource: DataSource) {
    super();
    const options = dataSource.options as MysqlConnectionOptions;
    if (!options.url) throw new Error('the MySQL writer needs the connection URL');
    this.pool = createPool({
      uri: options.url,
      charset: options.charset,
      timezone: options.timezone,
      supportBigNumbers: true,
      multipleStatements: true,
      connectionLimit: MYSQL_WRITER_CONNECTIONS,
    });
  }

  async runInTransaction(statements: Statement[]): Promise<void> {
    if (statements.length === 0) return;
    const script = mysqlScript(['START TRANSACTION', ...statements, 'COMMIT']);
    await this.inTransaction((connection) => connection.query(script.sql, script.parameters));
  }

  /**
   * Two round trips: the updates, each group's guard kept in a user variable (MySQL has no
   * procedural block outside stored programs), answering which groups applied; then the
   * records of those, and the commit.
   */
  async applyGuarded(groups: GuardedGroup[]): Promise<number[]> {
    return this.inTransaction(async (connection) => {
      const updates = mysqlGuardedScript(groups);
      const [results] = await connection.query(updates.sql, updates.parameters);
      const answers = (results as unknown[])[(results as unknown[]).length - 1] as Array<Record<string, number | string>>;
      const failures = groups.map((_, index) => Number(answers[0][`g${index}`]));
      const records = groups.flatMap((group, index) => (failures[index] < 0 ? group.record : []));
      const finish = mysqlScript([...records, 'COMMIT']);
      await connection.query(finish.sql, finish.parameters);
      return failures;
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** `work` on one of the writer's connections; a script cut short by an error leaves its transaction open, so it is rolled back. */
  private inTransaction<T>(work: (connection: PoolConnection) => Promise<T>): Promise<T> {
    return this.retryingDeadlocks(async () => {
      const connection = await this.pool.getConnection();
      try {
        return await work(connection);
      } catch (error) {
        // A connection that cannot even roll back is broken: it leaves the pool.
        await connection.query('ROLLBACK').catch(() => connection.destroy());
        throw error;
      } finally {
        connection.release();
      }
    });
  }
}

/** Statements (or bare SQL without values) as one multi-statement script and its values. */
function mysqlScript(parts: Array<Statement | string>): Statement {
  const parameters: unknown[] = [];
  const sql = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      parameters.push(...part.parameters);
      return part.sql;
    })
    .join(';\n');
  return { sql, parameters };
}

/**
 * The groups' updates as RawSql.applyGuarded says, in the transaction the caller began: each
 * group's failed index (or -1) in the user variable @gw_g<index>. Each update only runs while
 * its group has not failed; when one changes no row, the group's earlier updates are taken back.
 * Ends with the statement that answers the variables, as columns g0, g1, ….
 */
export function mysqlGuardedScript(groups: GuardedGroup[]): Statement {
  const parts: Array<Statement | string> = [];
  groups.forEach((group, index) => {
    const failed = `@gw_g${index}`;
    parts.push(`SET ${failed} = -1`);
    group.updates.forEach((update, position) => {
      parts.push(onlyWhen(update, `${failed} = -1`), `SET ${failed} = IF(${failed} = -1 AND ROW_COUNT() = 0, ${position}, ${failed})`);
    });
    // Taken back newest first, each only when a later update of its group failed.
    for (let position = group.updates.length - 2; position >= 0; position--) parts.push(onlyWhen(group.updates[position].undo, `${failed} > ${position}`));
  });
  parts.push(`SELECT ${groups.map((_, index) => `@gw_g${index} AS g${index}`).join(', ')}`);
  return mysqlScript(parts);
}

/** An UPDATE that also requires `condition`: our guarded updates and their undos all end in their WHERE clause. */
function onlyWhen(update: Statement | GuardedUpdate, condition: string): Statement {
  if (!/^UPDATE\b[\s\S]*\bWHERE\b/i.test(update.sql)) throw new Error(`a guarded update must be an UPDATE … WHERE: ${update.sql}`);
  return { sql: `${update.sql} AND ${condition}`, parameters: update.parameters };
}
