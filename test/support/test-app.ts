import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createGatewayApp, GatewayApp } from '../../src/app.factory';
import { AppConfig, DatabaseType, loadAppConfig, parseSqlDsn } from '../../src/config/app-config';
import { nativeSql } from '../../src/database/dialect';
import { OptionsService } from '../../src/modules/options/options.service';
import { ALLOW_PRIVATE_OPTION } from '../../src/modules/outbound/outbound-guard.service';
import { createDatabaseSql, databaseUrl, dropDatabaseSql, onServer } from '../../bench/bench-databases';
import { cloneTemplate, templateName } from './template-database';

export interface TestApp extends GatewayApp {
  config: AppConfig;
  /** Base URL of the listening server, for real HTTP clients (the openai SDK, fetch). */
  baseUrl: string;
  http: ReturnType<typeof request>;
  stop(): Promise<void>;
}

/** Which database the tests run on: PostgreSQL at TEST_PG_URL, else MySQL at TEST_MYSQL_URL, else SQLite. */
export function testDatabaseType(): DatabaseType {
  if (process.env.TEST_PG_URL) return 'postgres';
  return process.env.TEST_MYSQL_URL ? 'mysql' : 'sqlite';
}

/** A test's raw statement, written with `?` placeholders, as the database under test takes it (numbered on PostgreSQL). */
export function testSql(text: string): string {
  return nativeSql(testDatabaseType(), text);
}

/**
 * A scratch database per test file: on the PostgreSQL server at TEST_PG_URL
 * (postgres://postgres@127.0.0.1:5432) when set, else on the MySQL server at TEST_MYSQL_URL
 * (mysql://root@127.0.0.1:3306) when set, otherwise a scratch SQLite file. Either way the real
 * migrations run: on the app's first start, or, with `migrated` on a server, once per suite
 * into the template this database copies (template-database.ts). `type` asks for one kind
 * (its server's variable must be set): a test that pairs two kinds (a separate log database).
 */
export async function scratchDatabase(type: DatabaseType = testDatabaseType(), { migrated = false } = {}): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (type === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-test-'));
    return {
      env: { SQLITE_PATH: path.join(dir, 'test.db') },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = (type === 'postgres' ? process.env.TEST_PG_URL : process.env.TEST_MYSQL_URL)!;
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const template = migrated ? templateName(type) : undefined;
  if (template) await cloneTemplate(type, serverUrl, template, name);
  else await onServer(type, serverUrl, createDatabaseSql(type, name));
  return {
    env: { SQL_DSN: databaseUrl(serverUrl, name) },
    // FORCE: an app of the test that shares the database (a restart, a second instance) may still hold connections.
    drop: () => onServer(type, serverUrl, dropDatabaseSql(type, name)),
  };
}

/** The environment that points a second app at the first one's database (a restart, a second instance). */
export function sameDatabaseEnv(config: AppConfig): Record<string, string> {
  return config.database.type === 'sqlite' ? { SQLITE_PATH: config.database.sqlitePath } : { SQL_DSN: config.database.url };
}

/** A plain connection (not yet initialised) to the database a scratch env names, to read what a stopped gateway left. */
export function dataSourceFor(env: Record<string, string>): DataSource {
  if (!env.SQL_DSN) return new DataSource({ type: 'better-sqlite3', database: env.SQLITE_PATH });
  const { type, url } = parseSqlDsn(env.SQL_DSN);
  return new DataSource(type === 'postgres' ? { type: 'postgres', url } : { type: 'mysql', url });
}

export interface TestAppOptions {
  /**
   * Mock upstreams listen on loopback, which the outbound guard refuses by default; test apps
   * allow private networks (as root would for Ollama) unless a test checks the default.
   */
  allowPrivateOutbound?: boolean;
  /** MySQL and PostgreSQL: reach the scratch database through this loopback port (a TcpProxy the test can cut). */
  databasePort?: number;
  /** The main database's kind, when not the one the environment picks (testDatabaseType). */
  databaseType?: DatabaseType;
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await scratchDatabase(options.databaseType, { migrated: true });
  if (options.databasePort && database.env.SQL_DSN) {
    const dsn = new URL(database.env.SQL_DSN);
    dsn.hostname = '127.0.0.1';
    dsn.port = String(options.databasePort);
    database.env.SQL_DSN = dsn.toString();
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-data-'));
  const config = loadAppConfig({
    SESSION_SECRET: 'test-session-secret',
    DATA_DIR: dataDir,
    CRITICAL_RATE_LIMIT: '1000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...database.env,
    ...env,
  });
  const gateway = await createGatewayApp(config, ['error']);
  if (options.allowPrivateOutbound ?? true) await gateway.app.get(OptionsService).set(ALLOW_PRIVATE_OPTION, 'true', 100);
  await new Promise<void>((resolve) => gateway.server.listen(0, '127.0.0.1', () => resolve()));
  const address = gateway.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...gateway,
    config,
    baseUrl,
    http: request(baseUrl),
    async stop() {
      await gateway.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
