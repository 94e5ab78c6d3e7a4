import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import type { AppConfig } from '../../src/config/app-config';
import { createDatabaseSql, databaseUrl, dropDatabaseSql, onServer, type ServerKind } from '../../bench/bench-databases';

/**
 * Migrated template databases for the server suites. Running the ~30 migrations costs a
 * MariaDB scratch database about 3 s and a PostgreSQL one about 1.5 s, and the suites start
 * well over a hundred apps; so jest's global setup runs the real migrations once per server
 * into a template, and each test app's scratch database starts as a copy of it
 * (PostgreSQL's CREATE DATABASE … TEMPLATE; on MariaDB each table's own CREATE TABLE and rows).
 * Tests that need an empty database (the separate log database, restarts on a fresh one) ask
 * scratchDatabase for one as before.
 */

const TEMPLATE_ENV: Record<ServerKind, string> = { postgres: 'TEST_PG_TEMPLATE', mysql: 'TEST_MYSQL_TEMPLATE' };

/** The template's name for this run, or undefined when global setup made none. */
export function templateName(kind: ServerKind): string | undefined {
  return process.env[TEMPLATE_ENV[kind]];
}

export async function createTemplates(): Promise<void> {
  if (process.env.TEST_PG_URL) process.env[TEMPLATE_ENV.postgres] = await createTemplate('postgres', process.env.TEST_PG_URL);
  if (process.env.TEST_MYSQL_URL) process.env[TEMPLATE_ENV.mysql] = await createTemplate('mysql', process.env.TEST_MYSQL_URL);
}

export async function dropTemplates(): Promise<void> {
  const postgres = templateName('postgres');
  if (postgres && process.env.TEST_PG_URL) await onServer('postgres', process.env.TEST_PG_URL, dropDatabaseSql('postgres', postgres));
  const mysql = templateName('mysql');
  if (mysql && process.env.TEST_MYSQL_URL) await onServer('mysql', process.env.TEST_MYSQL_URL, dropDatabaseSql('mysql', mysql));
}

async function createTemplate(kind: ServerKind, serverUrl: string): Promise<string> {
  const name = `gw_tmpl_${randomBytes(6).toString('hex')}`;
  await onServer(kind, serverUrl, createDatabaseSql(kind, name));
  const url = databaseUrl(serverUrl, name);
  const migrated = new DataSource({ ...buildDataSourceOptions({ database: { type: kind, url } } as AppConfig), logging: false });
  await migrated.initialize();
  await migrated.destroy();
  return name;
}

/** Creates database `name` on the server as a copy of the template. */
export async function cloneTemplate(kind: ServerKind, serverUrl: string, template: string, name: string): Promise<void> {
  if (kind === 'postgres') return clonePostgres(serverUrl, template, name);
  return cloneMysql(serverUrl, template, name);
}

async function clonePostgres(serverUrl: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await onServer('postgres', serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } catch (error) {
      // Two copies started at the same moment may see each other as users of the template; one waits and tries again.
      if (attempt >= 5 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** The template's CREATE TABLE statements, read once per jest worker. */
let mysqlTables: Promise<Array<{ table: string; ddl: string }>> | undefined;

async function cloneMysql(serverUrl: string, template: string, name: string): Promise<void> {
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
  try {
    mysqlTables ??= readMysqlTables(connection, template);
    const tables = await mysqlTables;
    await connection.query(createDatabaseSql('mysql', name));
    await connection.query(`USE \`${name}\``);
    const copies = tables.map(({ table }) => `INSERT INTO \`${table}\` SELECT * FROM \`${template}\`.\`${table}\``);
    await connection.query(['SET FOREIGN_KEY_CHECKS = 0', ...tables.map(({ ddl }) => ddl), ...copies, 'SET FOREIGN_KEY_CHECKS = 1'].join(';\n'));
  } finally {
    await connection.end();
  }
}

async function readMysqlTables(connection: import('mysql2/promise').Connection, template: string): Promise<Array<{ table: string; ddl: string }>> {
  const [rows] = await connection.query<import('mysql2/promise').RowDataPacket[]>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [template]);
  const tables: Array<{ table: string; ddl: string }> = [];
  for (const { name } of rows) {
    const [[created]] = await connection.query<import('mysql2/promise').RowDataPacket[]>(`SHOW CREATE TABLE \`${template}\`.\`${name}\``);
    tables.push({ table: name, ddl: created['Create Table'] });
  }
  return tables;
}
