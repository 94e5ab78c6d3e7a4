import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * SCIM 2.0 provisioning: the bearer tokens an identity provider calls /scim/v2 with (stored
 * only as keyed hashes), and the provider's own id of each account it provisioned (SCIM
 * `externalId`), which it filters on to find the account again.
 */
export class Scim1795710000000 implements MigrationInterface {
  name = 'Scim1795710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'scim_tokens',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '64', default: "''" },
          // SecretBox.keyedHash of the token; the token itself is shown once, when it is made.
          { name: 'token_hash', type: 'varchar', length: '64', default: "''" },
          { name: 'created_time', type: 'bigint', default: 0 },
          { name: 'last_used_time', type: 'bigint', default: 0 },
        ],
        indices: [{ name: 'idx_scim_tokens_token_hash', columnNames: ['token_hash'], isUnique: true }],
      }),
      true,
    );
    // SCIM's externalId is case-exact; MySQL's default collation would match "ABC" to "abc".
    const caseExact = queryRunner.connection.options.type === 'mysql' ? ' CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : '';
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite,
    // which drops the case-insensitive unique index on usernames (an expression index it does not know).
    await queryRunner.query(`ALTER TABLE users ADD COLUMN scim_external_id varchar(191)${caseExact} NOT NULL DEFAULT ''`);
    await queryRunner.query('CREATE INDEX idx_users_scim_external_id ON users (scim_external_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('users', 'idx_users_scim_external_id');
    await queryRunner.query('ALTER TABLE users DROP COLUMN scim_external_id');
    await queryRunner.dropTable('scim_tokens', true);
  }
}
