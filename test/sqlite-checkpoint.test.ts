import { openSync, readSync, closeSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { RawSql } from '../src/database/raw-sql';
import { startTestApp, testDatabaseType, TestApp } from './support/test-app';

/**
 * SQLite's write-ahead log is copied into the database file once a second, on the connection
 * that writes, so each copy completes and the log starts over. A checkpoint that never
 * completes (one from another connection, racing the writes) would let a log written to
 * without pause grow for as long as the load lasts.
 */
const describeOnSqlite = testDatabaseType() === 'sqlite' ? describe : describe.skip;

/** The WAL header's checkpoint sequence number: SQLite adds one each time the log starts over. */
function walRestarts(sqlitePath: string): number {
  const header = Buffer.alloc(32);
  const file = openSync(`${sqlitePath}-wal`, 'r');
  try {
    readSync(file, header, 0, 32, 0);
  } finally {
    closeSync(file);
  }
  return header.readUInt32BE(12);
}

describeOnSqlite('SQLite checkpoints', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.stop();
  });

  it('restart the write-ahead log while writes never pause', async () => {
    const sql = app.app.get(RawSql);
    const write = () =>
      sql.runInTransaction([
        {
          sql: 'INSERT INTO logs (user_id, created_at, type, content, other) VALUES (?, ?, ?, ?, ?)',
          parameters: [1, Math.floor(Date.now() / 1000), 4, 'checkpoint test '.repeat(20), '{}'],
        },
      ]);
    await write();
    const before = walRestarts(app.config.database.sqlitePath);
    // A transaction at every turn of the event loop for 3.5 s: several checkpoint rounds, never a quiet moment between writes.
    const until = Date.now() + 3500;
    let writes = 0;
    while (Date.now() < until) {
      await write();
      writes++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(writes).toBeGreaterThan(1000);
    expect(walRestarts(app.config.database.sqlitePath)).toBeGreaterThanOrEqual(before + 2);
    const [{ count }] = await app.app.get(DataSource).query("SELECT COUNT(*) AS count FROM logs WHERE content LIKE 'checkpoint test%'");
    expect(Number(count)).toBe(writes + 1);
  });
});
