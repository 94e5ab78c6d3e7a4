import { MigrationInterface, QueryRunner } from 'typeorm';
import { postgresIndexes } from '../src/database/postgres-indexes';
import {
  addMonths,
  monthsFromTo,
  MONTHS_AHEAD,
  monthStart,
  MYSQL_CATCH_ALL_PARTITION,
  mysqlMonthPartitions,
  POSTGRES_DEFAULT_PARTITION,
  postgresMonthPartition,
} from '../src/modules/logs/log-months';

/** Older rows than this many months stay in one catch-all partition instead of a partition per month. */
const MONTHS_BACK_LIMIT = 60;

/**
 * The usage log, range-partitioned by month of created_at on MySQL/MariaDB and PostgreSQL, so
 * retention drops a month at once instead of deleting millions of rows (SQLite keeps one table).
 * The partition key must be in every unique key: the primary key becomes (id, created_at); id
 * stays generated (AUTO_INCREMENT leads a key on MySQL; the same sequence on PostgreSQL).
 * Months run from the oldest row's (at most MONTHS_BACK_LIMIT back) to MONTHS_AHEAD after now;
 * anything outside lands in a catch-all partition (MySQL: the first one for older rows and
 * `pmax` for later ones; PostgreSQL: `logs_default`), so an insert never fails.
 */
export class LogPartitions1795650000000 implements MigrationInterface {
  name = 'LogPartitions1795650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = queryRunner.connection.options.type;
    if (dialect !== 'mysql' && dialect !== 'postgres') return;
    const months = await initialMonths(queryRunner);
    if (dialect === 'mysql') {
      // One ALTER, one copy of the table: the new key and the partitioning together.
      const definitions = [...mysqlMonthPartitions(months), `PARTITION ${MYSQL_CATCH_ALL_PARTITION} VALUES LESS THAN MAXVALUE`];
      await queryRunner.query(`ALTER TABLE logs DROP PRIMARY KEY, ADD PRIMARY KEY (id, created_at) PARTITION BY RANGE (created_at) (${definitions.join(', ')})`);
      return;
    }
    // PostgreSQL cannot partition a table in place: a partitioned copy takes its place.
    await replacePostgresLogs(
      queryRunner,
      [
        'CREATE TABLE logs (LIKE logs_old INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)',
        ...months.map(postgresMonthPartition),
        `CREATE TABLE ${POSTGRES_DEFAULT_PARTITION} PARTITION OF logs DEFAULT`,
      ],
      'CONSTRAINT "PK_logs_id_created_at" PRIMARY KEY (id, created_at)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const dialect = queryRunner.connection.options.type;
    if (dialect === 'mysql') {
      await queryRunner.query('ALTER TABLE logs REMOVE PARTITIONING');
      await queryRunner.query('ALTER TABLE logs DROP PRIMARY KEY, ADD PRIMARY KEY (id)');
      return;
    }
    if (dialect === 'postgres') await replacePostgresLogs(queryRunner, ['CREATE TABLE logs (LIKE logs_old INCLUDING DEFAULTS)'], 'PRIMARY KEY (id)');
  }
}

/**
 * Moves the logs (as logs_old) into the table the `create` statements make under the name logs,
 * with its rows, its id sequence and its indexes (built once the rows are in; on a partitioned
 * table, on every partition).
 */
async function replacePostgresLogs(queryRunner: QueryRunner, create: string[], primaryKey: string): Promise<void> {
  const indexes = await postgresIndexes(queryRunner, 'logs');
  const [{ sequence }] = await queryRunner.query(`SELECT pg_get_serial_sequence('logs', 'id') AS sequence`);
  for (const index of indexes) await queryRunner.query(`DROP INDEX "${index.name}"`);
  await queryRunner.query('ALTER TABLE logs RENAME TO logs_old');
  for (const statement of create) await queryRunner.query(statement);
  await queryRunner.query(`ALTER SEQUENCE ${sequence} OWNED BY logs.id`);
  await queryRunner.query('INSERT INTO logs SELECT * FROM logs_old');
  await queryRunner.query('DROP TABLE logs_old');
  await queryRunner.query(`ALTER TABLE logs ADD ${primaryKey}`);
  for (const index of indexes) await queryRunner.query(index.definition);
}

/** Month starts from the oldest row's month (bounded by MONTHS_BACK_LIMIT) through MONTHS_AHEAD after now. */
async function initialMonths(queryRunner: QueryRunner): Promise<number[]> {
  const now = Math.floor(Date.now() / 1000);
  const [{ oldest }] = await queryRunner.query('SELECT MIN(created_at) AS oldest FROM logs WHERE created_at > 0');
  const earliest = addMonths(now, -MONTHS_BACK_LIMIT);
  const from = oldest === null ? now : Math.max(monthStart(Number(oldest)), earliest);
  return monthsFromTo(from, addMonths(now, MONTHS_AHEAD));
}
