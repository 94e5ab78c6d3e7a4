import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Online top-up orders (Epay, Stripe): pending until the provider's signed notice credits them once. */
export class TopUps1795400000000 implements MigrationInterface {
  name = 'TopUps1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'top_ups',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'amount', type: 'bigint', default: 0 },
          { name: 'money', type: 'varchar', length: '32', default: "'0.00'" },
          { name: 'quota', type: 'bigint', default: 0 },
          { name: 'trade_no', type: 'varchar', length: '64' },
          { name: 'payment_method', type: 'varchar', length: '32', default: "''" },
          { name: 'status', type: 'varchar', length: '16', default: "'pending'" },
          { name: 'create_time', type: 'bigint', default: 0 },
          { name: 'complete_time', type: 'bigint', default: 0 },
        ],
        indices: [
          { name: 'idx_top_ups_trade_no', columnNames: ['trade_no'], isUnique: true },
          { name: 'idx_top_ups_user_id', columnNames: ['user_id'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('top_ups', true);
  }
}
