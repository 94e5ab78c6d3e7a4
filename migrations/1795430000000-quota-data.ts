import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** quota_data's columns and indexes, as created here and in a separate log database (LogDatabaseTables1795640000000). */
export const QUOTA_DATA_COLUMNS = [
  { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const },
  { name: 'user_id', type: 'integer', default: 0 },
  { name: 'username', type: 'varchar', length: '64', default: "''" },
  { name: 'model_name', type: 'varchar', length: '255', default: "''" },
  // The hour the bucket starts (unix seconds).
  { name: 'created_at', type: 'bigint', default: 0 },
  { name: 'token_used', type: 'bigint', default: 0 },
  { name: 'count', type: 'bigint', default: 0 },
  { name: 'quota', type: 'bigint', default: 0 },
];

export const QUOTA_DATA_INDICES = [
  // One row per bucket, so a flush adds to it; also serves the per-user window.
  { name: 'uq_quota_data_bucket', columnNames: ['user_id', 'created_at', 'model_name'], isUnique: true },
  { name: 'idx_quota_data_created_at', columnNames: ['created_at'] },
  { name: 'idx_quota_data_username_created_at', columnNames: ['username', 'created_at'] },
];

/** Usage aggregated per user, model and hour, for the data dashboard. */
export class QuotaData1795430000000 implements MigrationInterface {
  name = 'QuotaData1795430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'quota_data',
        columns: QUOTA_DATA_COLUMNS,
        indices: QUOTA_DATA_INDICES,
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('quota_data', true);
  }
}
