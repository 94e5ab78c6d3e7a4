import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys at rest: `key_hash` (a keyed HMAC of the key) is what the relay looks a key up by,
 * and `key` holds the key encrypted (longer than the plain 48 characters). Rows written
 * before are hashed and encrypted at start by TokensService, which knows CRYPTO_SECRET.
 */
export class TokenKeyHash1795460000000 implements MigrationInterface {
  name = 'TokenKeyHash1795460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = queryRunner.connection.options.type;
    if (dialect === 'mysql') {
      await queryRunner.query('ALTER TABLE tokens MODIFY `key` varchar(191) NOT NULL, ADD COLUMN key_hash varchar(64) NULL');
    } else if (dialect === 'postgres') {
      await queryRunner.query('ALTER TABLE tokens ALTER COLUMN "key" TYPE varchar(191), ADD COLUMN key_hash varchar(64) NULL');
    } else {
      await queryRunner.query('ALTER TABLE tokens ADD COLUMN key_hash varchar(64) NULL');
    }
    await queryRunner.query('CREATE UNIQUE INDEX idx_tokens_key_hash ON tokens (key_hash)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') await queryRunner.query('DROP INDEX idx_tokens_key_hash ON tokens');
    else await queryRunner.query('DROP INDEX idx_tokens_key_hash');
    await queryRunner.query('ALTER TABLE tokens DROP COLUMN key_hash');
  }
}
