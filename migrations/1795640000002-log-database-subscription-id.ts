import { MigrationInterface, QueryRunner } from 'typeorm';
import { addLogSubscriptionId, dropLogSubscriptionId } from './1795630000000-subscription-plans';

/** A separate log database's rows name the subscription a draw came from, as the main database's do. */
export class LogDatabaseSubscriptionId1795640000002 implements MigrationInterface {
  name = 'LogDatabaseSubscriptionId1795640000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addLogSubscriptionId(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropLogSubscriptionId(queryRunner);
  }
}
