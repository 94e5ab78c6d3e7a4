/**
 * Direct access to the scratch SQLite database, for seeding rows the UI cannot create quickly
 * (an already-expired token, ten thousand rows). better-sqlite3 ships without type declarations,
 * so the few calls used here are typed by hand.
 */
interface Statement {
  run(...params: unknown[]): { changes: number };
  all(...params: unknown[]): Record<string, unknown>[];
}

export interface ScratchDb {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

const Database = require('better-sqlite3') as new (file: string) => ScratchDb;

export function openScratchDb(file: string): ScratchDb {
  return new Database(file);
}

/**
 * Copies row `templateId` of `table` `count` times in one statement; `overrides` maps columns to
 * SQL expressions over the counter `i` (1..count), e.g. {name: "'bulk-' || i"}.
 */
export function cloneRows(db: ScratchDb, table: string, templateId: number, count: number, overrides: Record<string, string>): number {
  const columns = db
    .prepare(`PRAGMA table_info(${table})`)
    .all()
    .map((column) => String(column.name))
    .filter((name) => name !== 'id');
  const select = columns.map((name) => (name in overrides ? overrides[name] : `"${name}"`)).join(', ');
  const quoted = columns.map((name) => `"${name}"`).join(', ');
  const sql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO ${table} (${quoted}) SELECT ${select} FROM n, ${table} WHERE ${table}.id = ${templateId}`;
  return db.prepare(sql).run().changes;
}
