import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { QUOTA_DATA_COLUMNS } from './1795430000000-quota-data';

const DAY = 86_400;

/** The admin's view of one user reads a window of their buckets by name; with the sums in the index it reads no rows. */
const USERNAME_WINDOW_COLUMNS = ['username', 'created_at', 'model_name', 'token_used', 'count', 'quota', 'user_id'];
const HOURLY_USERNAME_INDEX = new TableIndex({ name: 'idx_quota_data_username_window', columnNames: USERNAME_WINDOW_COLUMNS });
const REPLACED_USERNAME_INDEX = new TableIndex({ name: 'idx_quota_data_username_created_at', columnNames: ['username', 'created_at'] });

/** quota_data_daily's indexes: the bucket key the aggregator adds to, and each owner's window read from the index alone. */
export const QUOTA_DATA_DAILY_INDICES = [
  { name: 'uq_quota_data_daily_bucket', columnNames: ['user_id', 'created_at', 'model_name'], isUnique: true },
  { name: 'idx_quota_data_daily_owner_window', columnNames: ['user_id', 'created_at', 'model_name', 'token_used', 'count', 'quota', 'username'] },
  { name: 'idx_quota_data_daily_username_window', columnNames: USERNAME_WINDOW_COLUMNS },
];

/**
 * The dashboard's usage by UTC day beside the hourly buckets, so a month's view by day or week
 * reads some thirty rows per model instead of seven hundred (UsageAggregatorService writes
 * both in one transaction from now on). Filled here from the hourly buckets, one day a
 * statement. Usage that instances still running the previous version flush during a rolling
 * upgrade reaches the hourly buckets only.
 */
export class QuotaDataDaily1795760000000 implements MigrationInterface {
  name = 'QuotaDataDaily1795760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('quota_data', REPLACED_USERNAME_INDEX.name!);
    await queryRunner.createIndex('quota_data', HOURLY_USERNAME_INDEX);
    await queryRunner.createTable(new Table({ name: 'quota_data_daily', columns: QUOTA_DATA_COLUMNS }), true);
    const [{ oldest, newest }] = await queryRunner.query('SELECT MIN(created_at) AS oldest, MAX(created_at) AS newest FROM quota_data');
    const count = queryRunner.connection.driver.escape('count');
    // Whole numbers of our own making, written into the statement: a bound parameter in the select list has no type on PostgreSQL.
    const first = oldest === null ? Infinity : Number(oldest) - (Number(oldest) % DAY);
    for (let day = first; day <= Number(newest); day += DAY) {
      await queryRunner.query(
        `INSERT INTO quota_data_daily (user_id, username, model_name, created_at, token_used, ${count}, quota)
         SELECT user_id, MIN(username), model_name, ${day}, SUM(token_used), SUM(${count}), SUM(quota) FROM quota_data
         WHERE created_at >= ${day} AND created_at < ${day + DAY} GROUP BY user_id, model_name`,
      );
    }
    // Built once the rows are in.
    for (const index of QUOTA_DATA_DAILY_INDICES) await queryRunner.createIndex('quota_data_daily', new TableIndex(index));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('quota_data_daily', true);
    await queryRunner.dropIndex('quota_data', HOURLY_USERNAME_INDEX.name!);
    await queryRunner.createIndex('quota_data', REPLACED_USERNAME_INDEX);
  }
}
