import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The hold journal: one row per quota hold in flight, written with the hold and cleared by its settlement. */
export class QuotaHolds1795450000000 implements MigrationInterface {
  name = 'QuotaHolds1795450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'quota_holds',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'token_id', type: 'integer', default: 0 },
          { name: 'user_id', type: 'integer' },
          { name: 'from_token', type: 'bigint', default: 0 },
          { name: 'from_user', type: 'bigint', default: 0 },
          { name: 'created_at', type: 'bigint', default: 0 },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('quota_holds', true);
  }
}
