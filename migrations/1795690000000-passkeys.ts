import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Passkeys (WebAuthn credentials): several per account, for passwordless sign-in or as the second factor. */
export class Passkeys1795690000000 implements MigrationInterface {
  name = 'Passkeys1795690000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer', default: 0 },
          { name: 'name', type: 'varchar', length: '64', default: "''" },
          // The credential id (base64url) may be up to 1023 bytes; the unique index is on its sha256,
          // which fits MySQL's index length limit.
          { name: 'credential_id', type: 'text' },
          { name: 'credential_hash', type: 'varchar', length: '64' },
          // COSE public key, base64url.
          { name: 'public_key', type: 'text' },
          // The WebAuthn user handle given at registration (base64url); a sign-in must present the same one.
          { name: 'user_handle', type: 'varchar', length: '128', default: "''" },
          // The authenticator's signature counter: an assertion must carry a larger one (0 stays 0 for synced passkeys).
          { name: 'counter', type: 'bigint', default: 0 },
          { name: 'transports', type: 'varchar', length: '255', default: "''" },
          { name: 'backed_up', type: 'boolean', default: false },
          { name: 'created_time', type: 'bigint', default: 0 },
          { name: 'last_used_time', type: 'bigint', default: 0 },
        ],
        indices: [
          { name: 'uq_passkeys_credential_hash', columnNames: ['credential_hash'], isUnique: true },
          { name: 'idx_passkeys_user', columnNames: ['user_id'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('passkeys', true);
  }
}
