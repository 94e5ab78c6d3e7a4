import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Log rows on their way to a separate log database (LOG_SQL_DSN): written in the transaction
 * that moves the balance, copied and deleted by LogOutboxService. Empty, and never written,
 * while the logs live in this database. The id only ever grows (AUTOINCREMENT on SQLite, so a
 * deleted id is never handed out again): it becomes the log row's id over there.
 */
export class LogOutbox1795640000001 implements MigrationInterface {
  name = 'LogOutbox1795640000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'log_outbox',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          // The log row's columns as JSON; content and other together may pass TEXT's 64 KB on MySQL.
          { name: 'payload', type: queryRunner.connection.driver.options.type === 'mysql' ? 'mediumtext' : 'text' },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('log_outbox', true);
  }
}
