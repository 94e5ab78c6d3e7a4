import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadAppConfig, parseSqlDsn } from './app-config';

describe('SQL_DSN', () => {
  it('takes MySQL URLs, the Go-driver form and PostgreSQL URLs', () => {
    expect(parseSqlDsn('mysql://gw:pw@db:3306/gateway')).toEqual({ type: 'mysql', url: 'mysql://gw:pw@db:3306/gateway' });
    expect(parseSqlDsn('gw:p/w@tcp(db:3306)/gateway?parseTime=true')).toEqual({ type: 'mysql', url: 'mysql://gw:p%2Fw@db:3306/gateway' });
    expect(parseSqlDsn(' postgres://gw:pw@db:5432/gateway ')).toEqual({ type: 'postgres', url: 'postgres://gw:pw@db:5432/gateway' });
    expect(parseSqlDsn('postgresql://gw@db/gateway?sslmode=require')).toEqual({ type: 'postgres', url: 'postgresql://gw@db/gateway?sslmode=require' });
  });

  it('refuses anything else, naming the forms it takes', () => {
    expect(() => parseSqlDsn('sqlserver://db/gateway')).toThrow(ConfigError);
    expect(() => parseSqlDsn('sqlserver://db/gateway')).toThrow(/postgres:\/\//);
  });
});

describe('LOG_SQL_DSN', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-log-dsn-'));
  const load = (env: Record<string, string>) => loadAppConfig({ SESSION_SECRET: 'log-dsn-spec', SQLITE_PATH: path.join(dir, 'main.db'), ...env });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is absent unless set, and takes a server DSN or a SQLite file', () => {
    expect(load({}).logDatabase).toBeUndefined();
    expect(load({ LOG_SQL_DSN: 'postgres://gw@db:5432/logs' }).logDatabase).toEqual({ type: 'postgres', url: 'postgres://gw@db:5432/logs', sqlitePath: '' });
    expect(load({ LOG_SQL_DSN: 'gw:pw@tcp(db:3306)/logs' }).logDatabase).toMatchObject({ type: 'mysql', url: 'mysql://gw:pw@db:3306/logs' });
    expect(load({ LOG_SQL_DSN: path.join(dir, 'logs', 'logs.db') }).logDatabase).toEqual({ type: 'sqlite', url: '', sqlitePath: path.join(dir, 'logs', 'logs.db') });
    expect(load({ LOG_SQL_DSN: `sqlite:${path.join(dir, 'other.db')}` }).logDatabase).toMatchObject({ type: 'sqlite', sqlitePath: path.join(dir, 'other.db') });
  });

  it('refuses an unknown scheme and the main database itself', () => {
    expect(() => load({ LOG_SQL_DSN: 'sqlserver://db/logs' })).toThrow(/LOG_SQL_DSN must look like/);
    expect(() => load({ LOG_SQL_DSN: path.join(dir, 'main.db') })).toThrow(/names the main database/);
    expect(() => load({ SQL_DSN: 'mysql://gw@db/app', LOG_SQL_DSN: 'mysql://gw@db/app' })).toThrow(/names the main database/);
  });
});
