import { mysqlGuardedScript, pgGuardedScript, pgLiteral } from './server-writer';

const take = (id: number, amount: number) => ({
  sql: 'UPDATE t SET a = a - ? WHERE id = ? AND a >= ?',
  parameters: [amount, id, amount],
  undo: { sql: 'UPDATE t SET a = a + ? WHERE id = ?', parameters: [amount, id] },
});

describe('PostgreSQL literals', () => {
  it('quotes every value as a bound parameter’s text would read, escaping only where needed', () => {
    expect(pgLiteral(null)).toBe('NULL');
    expect(pgLiteral(undefined)).toBe('NULL');
    expect(pgLiteral(42)).toBe("'42'");
    expect(pgLiteral(-0.5)).toBe("'-0.5'");
    expect(pgLiteral(true)).toBe("'true'");
    expect(pgLiteral('plain')).toBe("'plain'");
    expect(pgLiteral("it's")).toBe("'it''s'");
    expect(pgLiteral('a\\b')).toBe(" E'a\\\\b'");
  });

  it('refuses what it cannot write exactly', () => {
    expect(() => pgLiteral(Number.NaN)).toThrow();
    expect(() => pgLiteral(Infinity)).toThrow();
    expect(() => pgLiteral({})).toThrow();
  });
});

describe('guarded scripts', () => {
  it('PostgreSQL: a DO block whose dollar quote no value contains, then the answer', () => {
    const script = pgGuardedScript([{ updates: [take(1, 5), take(2, 5)], record: [{ sql: 'INSERT INTO r (note) VALUES (?)', parameters: ['$guarded$'] }] }]);
    expect(script.startsWith('DO $guarded1$')).toBe(true);
    expect(script).toContain("IF NOT FOUND THEN UPDATE t SET a = a + '5' WHERE id = '1'; failed := failed || ' 1'; EXIT g0; END IF;");
    expect(script.endsWith("SELECT current_setting('gateway.guarded_failures') AS failed")).toBe(true);
  });

  it('MySQL: each update runs while its group stands, the undos newest first, values in statement order', () => {
    const script = mysqlGuardedScript([{ updates: [take(1, 5), take(2, 6), take(3, 7)], record: [] }]);
    expect(script.sql.split(';\n')).toEqual([
      'SET @gw_g0 = -1',
      'UPDATE t SET a = a - ? WHERE id = ? AND a >= ? AND @gw_g0 = -1',
      'SET @gw_g0 = IF(@gw_g0 = -1 AND ROW_COUNT() = 0, 0, @gw_g0)',
      'UPDATE t SET a = a - ? WHERE id = ? AND a >= ? AND @gw_g0 = -1',
      'SET @gw_g0 = IF(@gw_g0 = -1 AND ROW_COUNT() = 0, 1, @gw_g0)',
      'UPDATE t SET a = a - ? WHERE id = ? AND a >= ? AND @gw_g0 = -1',
      'SET @gw_g0 = IF(@gw_g0 = -1 AND ROW_COUNT() = 0, 2, @gw_g0)',
      'UPDATE t SET a = a + ? WHERE id = ? AND @gw_g0 > 1',
      'UPDATE t SET a = a + ? WHERE id = ? AND @gw_g0 > 0',
      'SELECT @gw_g0 AS g0',
    ]);
    expect(script.parameters).toEqual([5, 1, 5, 6, 2, 6, 7, 3, 7, 6, 2, 5, 1]);
  });

  it('MySQL: refuses a guarded statement it could not make conditional', () => {
    expect(() => mysqlGuardedScript([{ updates: [{ ...take(1, 5), sql: 'DELETE FROM t WHERE id = ?' }], record: [] }])).toThrow();
  });
});
