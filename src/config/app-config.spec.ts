import { ConfigError, parseSqlDsn } from './app-config';

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
