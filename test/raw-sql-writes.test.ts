import { DataSource } from 'typeorm';
import { queryAnyDialect } from '../src/database/dialect';
import { GuardedUpdate, RawSql } from '../src/database/raw-sql';
import { startTestApp, TestApp } from './support/test-app';

/**
 * RawSql's writes on every database: on MySQL and PostgreSQL each transaction goes as one
 * script with its values written in (ServerWriter), so text of every shape must arrive as it
 * was, a transaction must still apply all or nothing, and guarded groups must take back what a
 * failed guard leaves.
 */
describe('RawSql writes', () => {
  let app: TestApp;
  let sql: RawSql;
  let dataSource: DataSource;

  const rows = async () => (await queryAnyDialect<{ id: number; amount: number | string; note: string | null }>(dataSource, 'SELECT id, amount, note FROM writer_test ORDER BY id')).map((row) => ({ id: Number(row.id), amount: Number(row.amount), note: row.note }));
  const insert = (id: number, amount: number, note: string | null) => ({ sql: 'INSERT INTO writer_test (id, amount, note) VALUES (?, ?, ?)', parameters: [id, amount, note] });
  const take = (id: number, amount: number): GuardedUpdate => ({
    sql: 'UPDATE writer_test SET amount = amount - ? WHERE id = ? AND amount >= ?',
    parameters: [amount, id, amount],
    undo: { sql: 'UPDATE writer_test SET amount = amount + ? WHERE id = ?', parameters: [amount, id] },
  });

  beforeAll(async () => {
    app = await startTestApp();
    sql = app.app.get(RawSql);
    dataSource = app.app.get(DataSource);
    await dataSource.query('CREATE TABLE writer_test (id INT PRIMARY KEY, amount BIGINT NOT NULL, note TEXT)');
  });

  afterAll(async () => {
    await app.stop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM writer_test');
  });

  it('writes text of every shape as it was: quotes, backslashes, question marks, dollar quotes, newlines, emoji', async () => {
    const notes = ["it's", 'back\\slash \\\' \\\\', 'what? ?? $1 :name', '$guarded$ $$ $guarded1$ END; DROP TABLE writer_test; --', 'line\nbreak\ttab\r', '中文 😀 \u00e9', '', "'; SELECT 1; '"];
    await sql.runInTransaction(notes.map((note, index) => insert(index + 1, index, note)));
    expect((await rows()).map((row) => row.note)).toEqual(notes);
  });

  it('writes numbers past 2^31, negative numbers and nulls', async () => {
    await sql.runInTransaction([insert(1, 2 ** 40 + 3, null), insert(2, -17, 'x')]);
    expect(await rows()).toEqual([
      { id: 1, amount: 2 ** 40 + 3, note: null },
      { id: 2, amount: -17, note: 'x' },
    ]);
  });

  it('applies a transaction all or none: a failing statement takes back the ones before it, and the next one commits', async () => {
    await sql.runInTransaction([insert(1, 10, 'kept')]);
    await expect(sql.runInTransaction([insert(2, 20, 'undone'), { sql: 'UPDATE writer_test SET amount = amount + 1 WHERE id = ?', parameters: [1] }, insert(1, 30, 'duplicate key')])).rejects.toThrow();
    expect(await rows()).toEqual([{ id: 1, amount: 10, note: 'kept' }]);
    // The connection that failed holds no transaction open: the next write commits and is seen by others.
    for (let i = 0; i < 8; i++) await sql.runInTransaction([{ sql: 'UPDATE writer_test SET amount = amount + 1 WHERE id = ?', parameters: [1] }]);
    expect(await rows()).toEqual([{ id: 1, amount: 18, note: 'kept' }]);
  });

  it('applies guarded groups in order, taking back a group whose later guard fails and writing only the applied groups’ records', async () => {
    await sql.runInTransaction([insert(1, 100, null), insert(2, 5, null), insert(3, 50, null)]);
    const failures = await sql.applyGuarded([
      // Takes 10 from 1, then 10 from 2 fails: the 10 from 1 comes back, and no record.
      { updates: [take(1, 10), take(2, 10)], record: [insert(10, 0, "refused's record")] },
      { updates: [take(1, 30), take(3, 30)], record: [insert(11, 0, "applied's record \\ $guarded$")] },
      // The first guard fails: nothing to take back.
      { updates: [take(2, 6), take(3, 1)], record: [insert(12, 0, 'never')] },
      // Runs after the second group: 3 has 20 left, so 25 no longer fits.
      { updates: [take(1, 1), take(3, 25)], record: [] },
    ]);
    expect(failures).toEqual([1, -1, 0, 1]);
    expect(await rows()).toEqual([
      { id: 1, amount: 70, note: null },
      { id: 2, amount: 5, note: null },
      { id: 3, amount: 20, note: null },
      { id: 11, amount: 0, note: "applied's record \\ $guarded$" },
    ]);
  });

  it('answers every group of a large batch', async () => {
    await sql.runInTransaction([insert(1, 1000, null)]);
    const groups = Array.from({ length: 120 }, (_, index) => ({ updates: [take(1, 10)], record: [insert(100 + index, index, null)] }));
    const failures = await sql.applyGuarded(groups);
    expect(failures).toEqual(Array.from({ length: 120 }, (_, index) => (index < 100 ? -1 : 0)));
    const left = await rows();
    expect(left[0]).toEqual({ id: 1, amount: 0, note: null });
    expect(left).toHaveLength(101);
  });
});
