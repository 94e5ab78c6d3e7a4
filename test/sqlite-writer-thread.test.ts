import { DataSource } from 'typeorm';
import { RawSql } from '../src/database/raw-sql';
import { Transactions } from '../src/database/transactions';
import { startTestApp, testDatabaseType, TestApp } from './support/test-app';

/**
 * On SQLite the relay's writes run in a writer thread on a connection of its own, beside
 * TypeORM's. Two connections writing one file must never refuse each other's transactions.
 */
const describeOnSqlite = testDatabaseType() === 'sqlite' ? describe : describe.skip;

/** A plain connection of another writer; the project has no types for better-sqlite3. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (path: string) => { pragma(sql: string): unknown; exec(sql: string): void; close(): void };

describeOnSqlite('SQLite writer thread beside TypeORM', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.stop();
  });

  it('TypeORM transactions take the write lock when they begin, not at their first write', async () => {
    // Begun DEFERRED, a transaction that read first would be refused (SQLITE_BUSY_SNAPSHOT) once the writer thread committed meanwhile.
    const other = new Database(app.config.database.sqlitePath);
    other.pragma('busy_timeout = 0');
    try {
      const lockedDuringRead = await app.app.get(Transactions).run(async (manager) => {
        await manager.query('SELECT COUNT(*) AS count FROM users');
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec('ROLLBACK');
          return false;
        } catch (error) {
          return (error as { code?: string }).code === 'SQLITE_BUSY';
        }
      });
      expect(lockedDuringRead).toBe(true);
      // And released at commit.
      other.exec('BEGIN IMMEDIATE');
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
  });

  it('a console transaction that reads, then writes, succeeds while the writer thread commits without pause', async () => {
    const sql = app.app.get(RawSql);
    const dataSource = app.app.get(DataSource);
    await dataSource.query("INSERT INTO options (\"key\", value) VALUES ('writer-thread-test', '0')");
    let writing = true;
    let threadWrites = 0;
    const threadLoad = (async () => {
      while (writing) {
        await sql.runInTransaction([{ sql: 'INSERT INTO logs (user_id, created_at, type, content, other) VALUES (?, ?, ?, ?, ?)', parameters: [1, 0, 4, 'writer thread test', '{}'] }]);
        threadWrites++;
      }
    })();
    const transactions = app.app.get(Transactions);
    // Until both sides have done plenty: each console transaction lands between the thread's commits.
    let consoleWrites = 0;
    while (consoleWrites < 300 || threadWrites < 300) {
      await transactions.run(async (manager) => {
        const [{ value }] = await manager.query("SELECT value FROM options WHERE \"key\" = 'writer-thread-test'");
        await manager.query("UPDATE options SET value = ? WHERE \"key\" = 'writer-thread-test'", [String(Number(value) + 1)]);
      });
      consoleWrites++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    writing = false;
    await threadLoad;
    const [{ value }] = await dataSource.query("SELECT value FROM options WHERE \"key\" = 'writer-thread-test'");
    expect(value).toBe(String(consoleWrites));
    const [{ count }] = await dataSource.query("SELECT COUNT(*) AS count FROM logs WHERE content = 'writer thread test'");
    expect(Number(count)).toBe(threadWrites);
  });
});
