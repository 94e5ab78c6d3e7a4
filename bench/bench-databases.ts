import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** The databases the benches run the gateway on: SQLite, and the MySQL/MariaDB and PostgreSQL servers when they answer. */
export type DatabaseKind = 'sqlite' | 'mysql' | 'postgres';
export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'mysql', 'postgres'];

/** Each kind's server: BENCH_MYSQL_URL and BENCH_PG_URL, else the ones on this machine. SQLite needs none. */
export const DATABASE_SERVERS: Record<DatabaseKind, string> = {
  sqlite: '',
  mysql: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
  postgres: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432',
};

/** `--name value` from the command line. */
export function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The kinds a comma-separated flag value names, in the order of DATABASE_KINDS; an unknown name is an error. */
export function databaseKinds(list: string): DatabaseKind[] {
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !DATABASE_KINDS.includes(name as DatabaseKind));
  if (unknown.length > 0) throw new Error(`unknown database ${unknown.join(', ')}: use ${DATABASE_KINDS.join(', ')}`);
  return DATABASE_KINDS.filter((kind) => names.includes(kind));
}

/** The kinds that are database servers. */
export type ServerKind = Exclude<DatabaseKind, 'sqlite'>;

/** The statement that makes an empty database `name` on the server, UTF-8 throughout. */
export function createDatabaseSql(kind: ServerKind, name: string): string {
  return kind === 'postgres' ? `CREATE DATABASE "${name}" ENCODING 'UTF8' TEMPLATE template0` : `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`;
}

/** The statement that drops database `name`; FORCE: an app may still hold connections to it. */
export function dropDatabaseSql(kind: ServerKind, name: string): string {
  return kind === 'postgres' ? `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)` : `DROP DATABASE IF EXISTS \`${name}\``;
}

/** The URL of database `name` on the server at `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server (outside any database of its own), on a connection of its own. */
export async function onServer(kind: ServerKind, serverUrl: string, sql: string): Promise<void> {
  if (kind === 'postgres') {
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
    return;
  }
  const mysql = await import('mysql2/promise');
  const admin = await mysql.createConnection(serverUrl);
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A scratch database on the kind's server (a SQLite file in `dir`): the gateway's environment for it, and how to drop it. */
export async function scratchDatabase(kind: DatabaseKind, dir: string, prefix = 'gw_bench'): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === 'sqlite') return { env: { SQLITE_PATH: path.join(dir, 'bench.db') }, drop: async () => undefined };
  const serverUrl = DATABASE_SERVERS[kind];
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await onServer(kind, serverUrl, createDatabaseSql(kind, name));
  return { env: { SQL_DSN: databaseUrl(serverUrl, name) }, drop: () => onServer(kind, serverUrl, dropDatabaseSql(kind, name)) };
}

/** Whether the kind's server answers (SQLite always does). */
export async function reachable(kind: DatabaseKind): Promise<boolean> {
  const url = DATABASE_SERVERS[kind];
  try {
    if (kind === 'mysql') {
      const mysql = await import('mysql2/promise');
      await (await mysql.createConnection(url)).end();
    } else if (kind === 'postgres') {
      const { Client } = await import('pg');
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.end();
    }
    return true;
  } catch {
    return false;
  }
}
