import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * SAML sign-in: the IdP's subject (NameID) an account is bound to, and the message ids every
 * instance must agree on (our pending AuthnRequest ids, and the assertion ids already used,
 * each kept until it expires).
 */
export class Saml1795700000000 implements MigrationInterface {
  name = 'Saml1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds the whole table on SQLite.
    // 191 characters keep the index within MySQL's limit on utf8mb4.
    await queryRunner.query("ALTER TABLE users ADD COLUMN saml_id varchar(191) NOT NULL DEFAULT ''");
    await queryRunner.query('CREATE INDEX idx_users_saml_id ON users (saml_id)');
    await queryRunner.createTable(
      new Table({
        name: 'saml_message_ids',
        columns: [
          // sha256 of kind and id: ids are the IdP's (any length), the key stays fixed-size.
          { name: 'id_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'created_at', type: 'bigint', default: 0 },
          { name: 'expires_at', type: 'bigint', default: 0 },
        ],
        indices: [{ name: 'idx_saml_message_ids_expires_at', columnNames: ['expires_at'] }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('saml_message_ids', true);
    await queryRunner.dropIndex('users', 'idx_users_saml_id');
    await queryRunner.query('ALTER TABLE users DROP COLUMN saml_id');
  }
}
