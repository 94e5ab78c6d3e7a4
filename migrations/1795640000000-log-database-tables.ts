import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { LOGS_COLUMNS } from './1732233700000-relay-tables';
import { QUOTA_DATA_COLUMNS, QUOTA_DATA_INDICES } from './1795430000000-quota-data';
import { LOG_INDEXES, QUOTA_DATA_INDEX } from './1795470000000-log-query-indexes';

/**
 * A separate log database (LOG_SQL_DSN) holds only the usage logs and their rollups, created
 * at once in the shape the main database's migrations reach step by step. Its rows' ids are
 * the main database's outbox ids (LogOutboxService), which is what makes a replay a no-op.
 */
export class LogDatabaseTables1795640000000 implements MigrationInterface {
  name = 'LogDatabaseTables1795640000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'logs',
        columns: LOGS_COLUMNS,
        indices: [
          { name: 'idx_logs_created_at', columnNames: ['created_at'] },
          { name: 'idx_logs_user_id_created_at', columnNames: ['user_id', 'created_at'] },
          ...LOG_INDEXES.map(([name, columnNames]) => ({ name, columnNames })),
        ],
      }),
      true,
    );
    await queryRunner.createTable(new Table({ name: 'quota_data', columns: QUOTA_DATA_COLUMNS, indices: [...QUOTA_DATA_INDICES, QUOTA_DATA_INDEX] }), true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['quota_data', 'logs']) await queryRunner.dropTable(table, true);
  }
}
