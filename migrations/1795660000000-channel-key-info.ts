import { MigrationInterface, QueryRunner } from 'typeorm';

/** channels.channel_info: a multi-key channel's key mode and the status of each key (JSON; null: all enabled, drawn at random). */
export class ChannelKeyInfo1795660000000 implements MigrationInterface {
  name = 'ChannelKeyInfo1795660000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite.
    await queryRunner.query('ALTER TABLE channels ADD COLUMN channel_info text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE channels DROP COLUMN channel_info');
  }
}
