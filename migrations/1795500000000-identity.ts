import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Two-factor sign-in (a TOTP secret per account, single-use recovery codes) and the
 * device, address and last-seen time of each database-stored session.
 */
export class Identity1795500000000 implements MigrationInterface {
  name = 'Identity1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'user_two_factor',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          // AES-GCM ciphertext of the base32 secret (SecretBox), like channel keys.
          { name: 'secret', type: 'varchar', length: '255', default: "''" },
          // 0 while enrolment waits for its first code.
          { name: 'enabled_time', type: 'bigint', default: 0 },
          // The last TOTP time step accepted: a code of this step or an earlier one is a replay.
          { name: 'last_used_step', type: 'bigint', default: 0 },
          { name: 'created_time', type: 'bigint', default: 0 },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'two_factor_recovery_codes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer', default: 0 },
          // Keyed hash (SecretBox.keyedHash) of the code; the code itself is shown once.
          { name: 'code_hash', type: 'varchar', length: '64', default: "''" },
          { name: 'used_time', type: 'bigint', default: 0 },
        ],
        indices: [{ name: 'idx_two_factor_recovery_codes_user', columnNames: ['user_id'] }],
      }),
      true,
    );
    await queryRunner.addColumns('sessions', [
      new TableColumn({ name: 'user_agent', type: 'varchar', length: '255', default: "''" }),
      new TableColumn({ name: 'ip', type: 'varchar', length: '64', default: "''" }),
      new TableColumn({ name: 'last_seen', type: 'bigint', default: 0 }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('sessions', ['user_agent', 'ip', 'last_seen']);
    await queryRunner.dropTable('two_factor_recovery_codes', true);
    await queryRunner.dropTable('user_two_factor', true);
  }
}
