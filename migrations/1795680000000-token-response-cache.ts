import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The response cache's opt-in per token: `response_cache` (cache this token's deterministic
 * chats, embeddings and reranks) and `response_cache_nondeterministic` (cache its chats
 * sampled above temperature 0 as well).
 */
export class TokenResponseCache1795680000000 implements MigrationInterface {
  name = 'TokenResponseCache1795680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite.
    await queryRunner.query('ALTER TABLE tokens ADD COLUMN response_cache boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE tokens ADD COLUMN response_cache_nondeterministic boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tokens DROP COLUMN response_cache_nondeterministic');
    await queryRunner.query('ALTER TABLE tokens DROP COLUMN response_cache');
  }
}
