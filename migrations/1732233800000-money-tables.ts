import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Redemption codes. */
export class MoneyTables1732233800000 implements MigrationInterface {
  name = 'MoneyTables1732233800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'redemptions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer', default: 0 },
          { name: 'key', type: 'varchar', length: '32' },
          { name: 'status', type: 'integer', default: 1 },
          { name: 'name', type: 'varchar', length: '64', default: "''" },
          { name: 'quota', type: 'bigint', default: 100 },
          { name: 'created_time', type: 'bigint', default: 0 },
          { name: 'redeemed_time', type: 'bigint', default: 0 },
          { name: 'used_user_id', type: 'integer', default: 0 },
        ],
        indices: [
          { name: 'idx_redemptions_key', columnNames: ['key'], isUnique: true },
          { name: 'idx_redemptions_name', columnNames: ['name'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('redemptions', true);
  }
}
