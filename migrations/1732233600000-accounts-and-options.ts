import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Users, options and sessions. Written with the Table API so it runs on SQLite, MySQL and PostgreSQL alike. */
export class AccountsAndOptions1732233600000 implements MigrationInterface {
  name = 'AccountsAndOptions1732233600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const idColumn = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
    const text = (name: string, length: number, extra: object = {}) => ({ name, type: 'varchar', length: String(length), default: "''", ...extra });
    const bigint = (name: string) => ({ name, type: 'bigint', default: 0 });
    const int = (name: string, value = 0) => ({ name, type: 'integer', default: value });
    const dialect = queryRunner.connection.driver.options.type;

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          idColumn,
          text('username', 64, { default: undefined }),
          text('password', 255),
          text('display_name', 64),
          int('role', 1),
          int('status', 1),
          text('email', 128),
          text('github_id', 128),
          text('oidc_id', 128),
          text('wechat_id', 128),
          text('telegram_id', 128),
          text('linux_do_id', 128),
          { name: 'access_token', type: 'varchar', length: '64', isNullable: true },
          bigint('quota'),
          bigint('used_quota'),
          int('request_count'),
          text('group', 64, { default: "'default'" }),
          text('aff_code', 32, { default: undefined }),
          int('aff_count'),
          bigint('aff_quota'),
          bigint('aff_history_quota'),
          int('inviter_id'),
          { name: 'setting', type: 'text', isNullable: true },
          text('remark', 255),
          bigint('created_time'),
          { name: 'deleted_at', type: dialect === 'postgres' ? 'timestamp' : 'datetime', isNullable: true },
        ],
        indices: [
          { name: 'idx_users_username', columnNames: ['username'], isUnique: true },
          { name: 'idx_users_aff_code', columnNames: ['aff_code'], isUnique: true },
          { name: 'idx_users_access_token', columnNames: ['access_token'], isUnique: true },
          { name: 'idx_users_email', columnNames: ['email'] },
          { name: 'idx_users_github_id', columnNames: ['github_id'] },
          { name: 'idx_users_oidc_id', columnNames: ['oidc_id'] },
          { name: 'idx_users_wechat_id', columnNames: ['wechat_id'] },
          { name: 'idx_users_telegram_id', columnNames: ['telegram_id'] },
          { name: 'idx_users_linux_do_id', columnNames: ['linux_do_id'] },
          { name: 'idx_users_inviter_id', columnNames: ['inviter_id'] },
          { name: 'idx_users_group', columnNames: ['group'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'options',
        columns: [
          { name: 'key', type: 'varchar', length: '191', isPrimary: true },
          { name: 'value', type: dialect === 'mysql' ? 'mediumtext' : 'text' },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          bigint('created_time'),
          bigint('expires_at'),
        ],
        indices: [
          { name: 'idx_sessions_user_id', columnNames: ['user_id'] },
          { name: 'idx_sessions_expires_at', columnNames: ['expires_at'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'setups',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'version', type: 'varchar', length: '32' },
          bigint('initialized_at'),
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('setups', true);
    await queryRunner.dropTable('sessions', true);
    await queryRunner.dropTable('options', true);
    await queryRunner.dropTable('users', true);
  }
}
