import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Email verification codes, password-reset tokens and OAuth states: short-lived, single-use, stored hashed. */
export class OneTimeCodes1795410000000 implements MigrationInterface {
  name = 'OneTimeCodes1795410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'one_time_codes',
        columns: [
          { name: 'purpose', type: 'varchar', length: '32', isPrimary: true },
          // 191 characters keep the primary key within MySQL's index limit on utf8mb4.
          { name: 'subject', type: 'varchar', length: '191', isPrimary: true },
          { name: 'code_hash', type: 'varchar', length: '64' },
          { name: 'data', type: 'varchar', length: '255', default: "''" },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'created_at', type: 'bigint', default: 0 },
          { name: 'expires_at', type: 'bigint', default: 0 },
        ],
        indices: [{ name: 'idx_one_time_codes_expires_at', columnNames: ['expires_at'] }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('one_time_codes', true);
  }
}
