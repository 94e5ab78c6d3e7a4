import { MigrationInterface, QueryRunner } from 'typeorm';

/** The subscription a task's charge was drawn from (0: the wallet), so a task that fails later is refunded to it. */
export class TaskSubscriptionId1795750000000 implements MigrationInterface {
  name = 'TaskSubscriptionId1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite.
    await queryRunner.query('ALTER TABLE midjourneys ADD COLUMN subscription_id integer NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE tasks ADD COLUMN subscription_id integer NOT NULL DEFAULT 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tasks DROP COLUMN subscription_id');
    await queryRunner.query('ALTER TABLE midjourneys DROP COLUMN subscription_id');
  }
}
