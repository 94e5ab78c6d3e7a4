import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Subscription plans: `plans` (what an administrator sells) and `subscriptions` (what a user
 * bought: a copy of the plan's allowance, its period and its `used`). A subscription's budget
 * windows live in `budget_usage` under holder_kind `sub`. Consume log rows of draws carry the
 * subscription (`logs.subscription_id`, filtered on); the hold journal notes a draw's share
 * (`quota_holds.subscription_id`, `from_plan`) so a crash refund gives it back; a top-up order
 * and a redemption code may carry a plan instead of quota (`plan_id`).
 */
export class SubscriptionPlans1795630000000 implements MigrationInterface {
  name = 'SubscriptionPlans1795630000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'plans',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '64' },
          { name: 'price_cents', type: 'bigint', default: 0 },
          { name: 'duration_days', type: 'integer', default: 30 },
          { name: 'group', type: 'varchar', length: '64', default: "''" },
          { name: 'total_quota', type: 'bigint', default: 0 },
          { name: 'budget_windows', type: 'text', isNullable: true },
          { name: 'models', type: 'text', isNullable: true },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'allow_wallet_fallback', type: 'boolean', default: false },
          { name: 'created_at', type: 'bigint', default: 0 },
          { name: 'updated_at', type: 'bigint', default: 0 },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'subscriptions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'plan_id', type: 'integer' },
          { name: 'plan_name', type: 'varchar', length: '64', default: "''" },
          { name: 'status', type: 'integer', default: 1 },
          { name: 'starts_at', type: 'bigint', default: 0 },
          { name: 'expires_at', type: 'bigint', default: 0 },
          { name: 'total_quota', type: 'bigint', default: 0 },
          { name: 'used', type: 'bigint', default: 0 },
          { name: 'budget_windows', type: 'text', isNullable: true },
          { name: 'models', type: 'text', isNullable: true },
          { name: 'group', type: 'varchar', length: '64', default: "''" },
          { name: 'allow_wallet_fallback', type: 'boolean', default: false },
          { name: 'created_at', type: 'bigint', default: 0 },
        ],
        indices: [{ name: 'idx_subscriptions_user_id_expires_at', columnNames: ['user_id', 'expires_at'] }],
      }),
      true,
    );
    await addLogSubscriptionId(queryRunner);
    await queryRunner.query('ALTER TABLE top_ups ADD COLUMN plan_id integer NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE redemptions ADD COLUMN plan_id integer NOT NULL DEFAULT 0');
    // Plain ADD COLUMN: TypeORM's addColumn rebuilds a SQLite table, which would lose quota_holds' WITHOUT ROWID.
    await queryRunner.query('ALTER TABLE quota_holds ADD COLUMN subscription_id integer NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE quota_holds ADD COLUMN from_plan bigint NOT NULL DEFAULT 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE quota_holds DROP COLUMN from_plan');
    await queryRunner.query('ALTER TABLE quota_holds DROP COLUMN subscription_id');
    await queryRunner.query('ALTER TABLE redemptions DROP COLUMN plan_id');
    await queryRunner.query('ALTER TABLE top_ups DROP COLUMN plan_id');
    await dropLogSubscriptionId(queryRunner);
    await queryRunner.dropTable('subscriptions', true);
    await queryRunner.dropTable('plans', true);
  }
}

/** The log rows' subscription column, here and in a separate log database (LogDatabaseSubscriptionId1795640000002). */
export async function addLogSubscriptionId(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('ALTER TABLE logs ADD COLUMN subscription_id integer NOT NULL DEFAULT 0');
  await queryRunner.createIndex('logs', new TableIndex({ name: 'idx_logs_subscription_id_created_at', columnNames: ['subscription_id', 'created_at'] }));
}

export async function dropLogSubscriptionId(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.dropIndex('logs', 'idx_logs_subscription_id_created_at');
  await queryRunner.query('ALTER TABLE logs DROP COLUMN subscription_id');
}
