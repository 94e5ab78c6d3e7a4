import { MigrationInterface, QueryRunner, Table } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const varchar = (name: string, length: number, fallback = '') => ({ name, type: 'varchar', length: String(length), default: `'${fallback}'` });
const nullableVarchar = (name: string, length: number) => ({ name, type: 'varchar', length: String(length), isNullable: true });
const text = (name: string) => ({ name, type: 'text', isNullable: true });
const bigint = (name: string, fallback = 0) => ({ name, type: 'bigint', default: fallback });
const int = (name: string, fallback = 0) => ({ name, type: 'integer', default: fallback });
const bool = (name: string, fallback: boolean) => ({ name, type: 'boolean', default: fallback });

/** The usage log's columns, as created here and in a separate log database (LogDatabaseTables1795640000000). */
export const LOGS_COLUMNS = [
  id,
  int('user_id'),
  bigint('created_at'),
  int('type'),
  text('content'),
  varchar('username', 64),
  varchar('token_name', 64),
  int('token_id'),
  varchar('model_name', 255),
  bigint('quota'),
  int('prompt_tokens'),
  int('completion_tokens'),
  int('use_time'),
  bool('is_stream', false),
  int('channel_id'),
  varchar('channel_name', 255),
  varchar('group', 64),
  varchar('ip', 64),
  text('other'),
];

/** Channels, abilities, tokens and logs. */
export class RelayTables1732233700000 implements MigrationInterface {
  name = 'RelayTables1732233700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'channels',
        columns: [
          id,
          int('type', 1),
          { name: 'key', type: 'text' },
          varchar('name', 255),
          int('status', 1),
          varchar('openai_organization', 255),
          varchar('test_model', 255),
          varchar('base_url', 512),
          text('other'),
          { name: 'models', type: 'text' },
          varchar('group', 255, 'default'),
          text('model_mapping'),
          text('status_code_mapping'),
          text('setting'),
          text('param_override'),
          text('other_info'),
          nullableVarchar('tag', 64),
          bigint('priority'),
          int('weight'),
          int('auto_ban', 1),
          int('max_input_tokens'),
          int('response_time'),
          { name: 'balance', type: queryRunner.connection.options.type === 'postgres' ? 'double precision' : 'double', default: 0 },
          bigint('balance_updated_time'),
          bigint('used_quota'),
          bigint('created_time'),
          bigint('test_time'),
          bigint('expired_time'),
        ],
        indices: [
          { name: 'idx_channels_name', columnNames: ['name'] },
          { name: 'idx_channels_tag', columnNames: ['tag'] },
          { name: 'idx_channels_status', columnNames: ['status'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'abilities',
        columns: [
          { name: 'group', type: 'varchar', length: '64', isPrimary: true },
          { name: 'model', type: 'varchar', length: '255', isPrimary: true },
          { name: 'channel_id', type: 'integer', isPrimary: true },
          bool('enabled', true),
          bigint('priority'),
          int('weight'),
          nullableVarchar('tag', 64),
        ],
        indices: [
          { name: 'idx_abilities_channel_id', columnNames: ['channel_id'] },
          { name: 'idx_abilities_tag', columnNames: ['tag'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'tokens',
        columns: [
          id,
          { name: 'user_id', type: 'integer' },
          { name: 'key', type: 'varchar', length: '64' },
          int('status', 1),
          varchar('name', 64),
          bigint('created_time'),
          bigint('accessed_time'),
          bigint('expired_time', -1),
          bigint('remain_quota'),
          bool('unlimited_quota', false),
          bool('model_limits_enabled', false),
          text('model_limits'),
          text('allow_ips'),
          bigint('used_quota'),
          varchar('group', 64),
        ],
        indices: [
          { name: 'idx_tokens_key', columnNames: ['key'], isUnique: true },
          { name: 'idx_tokens_user_id', columnNames: ['user_id'] },
          { name: 'idx_tokens_name', columnNames: ['name'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'logs',
        columns: LOGS_COLUMNS,
        // Every consume request writes a row, so each index costs on the hot path: none for the
        // model filter (a substring match) or token id (nothing filters by it).
        indices: [
          { name: 'idx_logs_created_at', columnNames: ['created_at'] },
          { name: 'idx_logs_user_id_created_at', columnNames: ['user_id', 'created_at'] },
          { name: 'idx_logs_type_created_at', columnNames: ['type', 'created_at'] },
          { name: 'idx_logs_token_name', columnNames: ['token_name'] },
          { name: 'idx_logs_username', columnNames: ['username'] },
          { name: 'idx_logs_channel_id', columnNames: ['channel_id'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['logs', 'tokens', 'abilities', 'channels']) await queryRunner.dropTable(table, true);
  }
}
