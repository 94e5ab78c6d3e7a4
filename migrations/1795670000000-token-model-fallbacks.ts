import { MigrationInterface, QueryRunner } from 'typeorm';

/** tokens.model_fallbacks: the token's own fallback chain, comma-separated (null: the ModelFallbacks setting applies). */
export class TokenModelFallbacks1795670000000 implements MigrationInterface {
  name = 'TokenModelFallbacks1795670000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite.
    await queryRunner.query('ALTER TABLE tokens ADD COLUMN model_fallbacks text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tokens DROP COLUMN model_fallbacks');
  }
}
