import { DataSource } from 'typeorm';
import { LogPartitions1795650000000 } from '../migrations/1795650000000-log-partitions';
import { addMonths, monthPartitionName, monthStart, MONTHS_AHEAD, monthsFromTo } from '../src/modules/logs/log-months';
import { LogPartitionsService } from '../src/modules/logs/log-partitions.service';
import { LOG_TYPE_CONSUME, LOG_TYPE_SYSTEM } from '../src/modules/logs/entities/log.entity';
import { LogsJobs } from '../src/modules/logs/logs.jobs';
import { LogsService } from '../src/modules/logs/logs.service';
import { createAdmin, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp, testDatabaseType, testSql } from './support/test-app';

const DAY = 86_400;
const dialect = testDatabaseType();

// SQLite keeps the logs in one table (it has no partitioning): nothing here applies to it.
const describeOnServer = dialect === 'sqlite' ? describe.skip : describe;
const title = dialect === 'sqlite' ? 'logs partitioned by month: skipped on SQLite, which keeps one logs table' : `logs partitioned by month (${dialect})`;

describeOnServer(title, () => {
  let app: TestApp;
  let db: DataSource;
  let partitions: LogPartitionsService;
  let admin: Session;
  const now = Math.floor(Date.now() / 1000);
  const thisMonth = monthStart(now);

  /** The month partitions' names as the database has them (PostgreSQL's are tables named logs_<name>). */
  const tableName = (month: number) => (dialect === 'postgres' ? `logs_${monthPartitionName(month)}` : monthPartitionName(month));
  const catchAll = dialect === 'postgres' ? 'logs_default' : 'pmax';

  /** Rows in one partition (matching a condition, when given). */
  async function rowsIn(partition: string, condition = '1 = 1'): Promise<number> {
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM ${dialect === 'postgres' ? partition : `logs PARTITION (${partition})`} WHERE ${condition}`);
    return Number(row.n);
  }

  /** `count` consume rows one second apart from `from`, tagged with `username`. */
  async function insertRows(username: string, from: number, count: number): Promise<void> {
    for (let done = 0; done < count; done += 500) {
      const batch = Math.min(500, count - done);
      const values = Array.from({ length: batch }, () => '(?, ?, ?, ?, ?)').join(', ');
      const parameters = Array.from({ length: batch }, (_, i) => [admin.id, from + done + i, LOG_TYPE_CONSUME, username, 10]).flat();
      await db.query(testSql(`INSERT INTO logs (user_id, created_at, type, username, quota) VALUES ${values}`), parameters);
    }
  }

  /** Months taken out of logs whose tables are not deleted yet. */
  async function detachedTables(): Promise<string[]> {
    const rows: Array<{ name: string }> =
      dialect === 'postgres'
        ? await db.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'dropped%'`)
        : await db.query(`SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'dropped%'`);
    return rows.map((row) => row.name);
  }

  async function names(): Promise<string[]> {
    return (await partitions.list()).map((partition) => partition.name);
  }

  beforeAll(async () => {
    app = await startTestApp();
    db = app.app.get(DataSource);
    partitions = app.app.get(LogPartitionsService);
    admin = await createAdmin(app, await setupRoot(app), 'partadmin');
  });
  afterAll(() => app.stop());

  it('creates the table with this month, the next ones and a catch-all partition', async () => {
    const months = monthsFromTo(now, addMonths(now, MONTHS_AHEAD)).map(tableName);
    expect(months).toHaveLength(MONTHS_AHEAD + 1);
    expect(await names()).toEqual([...months, catchAll]);
    const listed = await partitions.list();
    expect(listed[0]).toMatchObject({ to: addMonths(now, 1) });
    expect(listed[listed.length - 1]).toMatchObject({ name: catchAll, to: null });
  });

  it('keeps every index with its columns in order, the partition key added to the primary key', async () => {
    const columnsOf = async (index: string): Promise<string> => {
      if (dialect === 'mysql') {
        const [row] = await db.query(
          `SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS columns FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'logs' AND INDEX_NAME = ?`,
          [index],
        );
        return row.columns;
      }
      const [row] = await db.query(`SELECT regexp_replace(indexdef, '^.*\\((.*)\\)$', '\\1') AS columns FROM pg_indexes WHERE tablename = 'logs' AND indexname = $1`, [index]);
      return String(row.columns).replace(/ /g, '');
    };
    expect(await columnsOf('idx_logs_model_name_created_at')).toBe('model_name,created_at');
    expect(await columnsOf('idx_logs_username_created_at')).toBe('username,created_at,type,quota');
    expect(await columnsOf(dialect === 'mysql' ? 'PRIMARY' : 'PK_logs_id_created_at')).toBe('id,created_at');
  });

  it('puts each row in its month, generates ids, and takes rows past the last month in the catch-all', async () => {
    const logs = app.app.get(LogsService);
    await logs.record({ type: LOG_TYPE_SYSTEM, user_id: admin.id, username: admin.username, content: 'first' });
    await logs.record({ type: LOG_TYPE_SYSTEM, user_id: admin.id, username: admin.username, content: 'second' });
    const ids: Array<{ id: number }> = await db.query(testSql('SELECT id FROM logs WHERE content IN (?, ?) ORDER BY id'), ['first', 'second']);
    expect(ids).toHaveLength(2);
    expect(Number(ids[1].id)).toBeGreaterThan(Number(ids[0].id));
    expect(await rowsIn(tableName(thisMonth), "content IN ('first', 'second')")).toBe(2);

    const nextMonth = addMonths(now, 1);
    await insertRows('next-month', nextMonth + DAY, 3);
    expect(await rowsIn(tableName(nextMonth))).toBe(3);
    const farFuture = addMonths(now, MONTHS_AHEAD + 3);
    await insertRows('far-future', farFuture + DAY, 4);
    expect(await rowsIn(catchAll)).toBe(4);
  });

  it('the job makes the coming months, moving rows the catch-all took for them', async () => {
    const newest = addMonths(now, MONTHS_AHEAD);
    await db.query(dialect === 'postgres' ? `DROP TABLE ${tableName(newest)}` : `ALTER TABLE logs DROP PARTITION ${tableName(newest)}`);
    await insertRows('newest-month', newest + DAY, 2);
    expect(await names()).not.toContain(tableName(newest));

    await app.app.get(LogsJobs).createPartitionsAhead();
    expect(await names()).toContain(tableName(newest));
    expect(await rowsIn(tableName(newest))).toBe(2);

    // Later on, the same job runs with the months further along: the far-future rows move out of the catch-all.
    const farFuture = addMonths(now, MONTHS_AHEAD + 3);
    const created = await partitions.ensureAhead(addMonths(now, 3));
    expect(created).toEqual(monthsFromTo(addMonths(now, MONTHS_AHEAD + 1), farFuture).map(tableName));
    expect(await rowsIn(tableName(farFuture))).toBe(4);
    expect(await rowsIn(catchAll)).toBe(0);
    expect(await partitions.ensureAhead(addMonths(now, 3))).toEqual([]);
  });

  it('gives older months their partitions, moving the rows already there', async () => {
    const twoMonthsAgo = addMonths(now, -2);
    await insertRows('two-months-ago', twoMonthsAgo + DAY, 5);
    const created = await partitions.ensureMonths(addMonths(now, -4), now);
    expect(created).toEqual(monthsFromTo(addMonths(now, -4), addMonths(now, -1)).map(tableName));
    expect((await names()).slice(0, 5)).toEqual(monthsFromTo(addMonths(now, -4), now).map(tableName));
    expect(await rowsIn(tableName(twoMonthsAgo))).toBe(5);
  });

  it('reads across months: pages newest first, filters and totals stay right', async () => {
    const lastMonth = addMonths(now, -1);
    await insertRows('spread', lastMonth + 5 * DAY, 3);
    await insertRows('spread', thisMonth + 60, 2);
    const page = await admin.get(`/api/log/?username=spread&start_timestamp=${addMonths(now, -4)}&end_timestamp=${now + 3600}&page_size=10`);
    expect(page.body.data).toMatchObject({ total: 5, total_capped: false });
    const times = page.body.data.items.map((item: { created_at: number }) => item.created_at);
    expect(times).toEqual([thisMonth + 61, thisMonth + 60, lastMonth + 5 * DAY + 2, lastMonth + 5 * DAY + 1, lastMonth + 5 * DAY]);
    const stat = await admin.get(`/api/log/stat?type=${LOG_TYPE_CONSUME}&username=spread`);
    expect(stat.body.data).toMatchObject({ quota: 50 });
  });

  it('retention drops the whole months before the cutoff and deletes the partial month in chunks', async () => {
    const threeMonthsAgo = addMonths(now, -3);
    const twoMonthsAgo = addMonths(now, -2);
    const lastMonth = addMonths(now, -1);
    await insertRows('retention', threeMonthsAgo + DAY, 400);
    await insertRows('retention', lastMonth, 700);
    await insertRows('retention', lastMonth + 20 * DAY, 300);
    const cutoff = lastMonth + 700 - 100;
    const [{ n: older }] = await db.query(testSql('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?'), [cutoff]);
    // 400 + 5 (two months ago) + 600 of last month's first rows; the far older months hold none.
    expect(Number(older)).toBe(1005);

    const cleared = await admin.delete(`/api/log/?target_timestamp=${cutoff}`);
    expect(cleared.body).toMatchObject({ success: true, data: 1005 });
    const left = await names();
    for (const month of monthsFromTo(addMonths(now, -4), twoMonthsAgo)) expect(left).not.toContain(tableName(month));
    expect(left[0]).toBe(tableName(lastMonth));
    expect(await rowsIn(tableName(lastMonth))).toBe(100 + 300 + 3);
    const [{ n: remaining }] = await db.query(testSql('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?'), [cutoff]);
    expect(Number(remaining)).toBe(0);
    expect(Number((await db.query(testSql('SELECT MIN(created_at) AS t FROM logs WHERE username = ?'), ['retention']))[0].t)).toBe(cutoff);
    expect((await admin.get('/api/log/?username=spread')).body.data.total).toBe(5);

    // The months taken out are deleted from the disk after the call answered.
    await partitions.reclaimDetachedMonths();
    expect(await detachedTables()).toEqual([]);

    // Rows older than every month partition (a clock set back) go too, and a cutoff with nothing before it removes nothing.
    await insertRows('clock-skew', lastMonth - 10 * DAY, 2);
    expect((await admin.delete(`/api/log/?target_timestamp=${cutoff}`)).body).toMatchObject({ success: true, data: 2 });
    expect((await admin.delete(`/api/log/?target_timestamp=${cutoff}`)).body).toMatchObject({ success: true, data: 0 });
  });

  it('the hourly job deletes a month a crash left taken out but not deleted', async () => {
    const month = addMonths(now, -30);
    const leftover = `dropped_logs_${monthPartitionName(month)}`;
    await db.query(`CREATE TABLE ${leftover} (id integer)`);
    expect(await detachedTables()).toEqual([leftover]);
    await app.app.get(LogsJobs).reclaimDetachedMonths();
    expect(await detachedTables()).toEqual([]);
  });

  it('the migration converts a filled table both ways, keeping its rows and ids', async () => {
    const migration = new LogPartitions1795650000000();
    const snapshot = async () => db.query('SELECT id, created_at, username FROM logs ORDER BY id') as Promise<Array<Record<string, unknown>>>;
    const before = await snapshot();
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await partitions.list()).toEqual([]);
      expect(await snapshot()).toEqual(before);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await snapshot()).toEqual(before);
    const oldest = Math.min(...before.map((row) => Number(row.created_at)).filter((createdAt) => createdAt > 0));
    expect(await names()).toEqual([...monthsFromTo(oldest, addMonths(now, MONTHS_AHEAD)).map(tableName), catchAll]);
    // Ids go on from the same sequence.
    await app.app.get(LogsService).record({ type: LOG_TYPE_SYSTEM, user_id: admin.id, username: admin.username, content: 'after the conversion' });
    const [{ id }] = await db.query(testSql('SELECT id FROM logs WHERE content = ?'), ['after the conversion']);
    expect(Number(id)).toBeGreaterThan(Math.max(...before.map((row) => Number(row.id))));
  });
});
