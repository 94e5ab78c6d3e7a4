import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The usage-log filters, each as (column, created_at): the log pages list newest first by
 * created_at, so a page reads its 20 entries straight off the index and the capped count
 * reads the index alone, however big the table. type and quota ride along where the
 * statistics (SUM(quota) of consume rows) filter, so those sums never touch the table either.
 * The model filter matches a substring: its index lists the distinct names cheaply, and the
 * matching names are then looked up exactly (LogsService).
 */
export const LOG_INDEXES: Array<[name: string, columns: string[]]> = [
  ['idx_logs_type_created_at', ['type', 'created_at', 'quota']],
  ['idx_logs_username_created_at', ['username', 'created_at', 'type', 'quota']],
  ['idx_logs_token_name_created_at', ['token_name', 'created_at']],
  ['idx_logs_channel_id_created_at', ['channel_id', 'created_at']],
  ['idx_logs_model_name_created_at', ['model_name', 'created_at']],
];
/** The single-column indexes those replace (idx_logs_created_at and idx_logs_user_id_created_at stay). */
const REPLACED: Array<[name: string, columns: string[]]> = [
  ['idx_logs_type', ['type']],
  ['idx_logs_username', ['username']],
  ['idx_logs_token_name', ['token_name']],
  ['idx_logs_channel_id', ['channel_id']],
];
/** The dashboard sums a window of one owner's buckets; with the sums in the index it reads no rows. */
export const QUOTA_DATA_INDEX = new TableIndex({ name: 'idx_quota_data_owner_window', columnNames: ['user_id', 'created_at', 'model_name', 'token_used', 'count', 'quota', 'username'] });

/** Seven indexes on logs, as before plus the model's: each consume insert maintains no more than needed. */
export class LogQueryIndexes1795470000000 implements MigrationInterface {
  name = 'LogQueryIndexes1795470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of REPLACED) await queryRunner.dropIndex('logs', name);
    for (const [name, columnNames] of LOG_INDEXES) await queryRunner.createIndex('logs', new TableIndex({ name, columnNames }));
    await queryRunner.createIndex('quota_data', QUOTA_DATA_INDEX);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('quota_data', QUOTA_DATA_INDEX.name!);
    for (const [name] of LOG_INDEXES) await queryRunner.dropIndex('logs', name);
    for (const [name, columnNames] of REPLACED) await queryRunner.createIndex('logs', new TableIndex({ name, columnNames }));
  }
}
