import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The administrators' audit log: one row per change, never edited. */
export class AuditLogs1795490000000 implements MigrationInterface {
  name = 'AuditLogs1795490000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'audit_logs',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'created_at', type: 'bigint', default: 0 },
          { name: 'actor_id', type: 'integer', default: 0 },
          { name: 'actor_username', type: 'varchar', length: '64', default: "''" },
          { name: 'actor_ip', type: 'varchar', length: '64', default: "''" },
          { name: 'entity', type: 'varchar', length: '32', default: "''" },
          { name: 'entity_id', type: 'varchar', length: '191', default: "''" },
          { name: 'action', type: 'varchar', length: '32', default: "''" },
          // JSON: field → {from, to}, or {changed: true} for a secret. A price map's old and new values pass TEXT's 64 KB on MySQL.
          { name: 'changes', type: queryRunner.connection.driver.options.type === 'mysql' ? 'mediumtext' : 'text', isNullable: true },
          // The ledger's log row of a quota change made with it (0: none).
          { name: 'log_id', type: 'integer', default: 0 },
        ],
        indices: [
          { name: 'idx_audit_logs_created_at', columnNames: ['created_at'] },
          { name: 'idx_audit_logs_actor_created_at', columnNames: ['actor_id', 'created_at'] },
          { name: 'idx_audit_logs_entity_created_at', columnNames: ['entity', 'created_at'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_logs', true);
  }
}
