import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Drawing (Midjourney) and generic (Suno) task tables. */
export class TaskTables1795420000000 implements MigrationInterface {
  name = 'TaskTables1795420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
    const varchar = (name: string, length: number) => ({ name, type: 'varchar', length: String(length), default: "''" });
    const text = (name: string) => ({ name, type: 'text', isNullable: true });
    const bigint = (name: string) => ({ name, type: 'bigint', default: 0 });
    const int = (name: string) => ({ name, type: 'integer', default: 0 });

    await queryRunner.createTable(
      new Table({
        name: 'midjourneys',
        columns: [
          id,
          int('code'),
          int('user_id'),
          int('token_id'),
          bigint('token_quota'),
          varchar('action', 40),
          varchar('mj_id', 191),
          text('prompt'),
          text('prompt_en'),
          text('description'),
          varchar('state', 255),
          bigint('submit_time'),
          bigint('start_time'),
          bigint('finish_time'),
          text('image_url'),
          varchar('status', 20),
          varchar('progress', 30),
          text('fail_reason'),
          int('channel_id'),
          bigint('quota'),
          text('buttons'),
          text('properties'),
          text('notify_hook'),
          bigint('created_at'),
        ],
        indices: [
          { name: 'idx_midjourneys_mj_id', columnNames: ['mj_id'] },
          { name: 'idx_midjourneys_user_id_submit_time', columnNames: ['user_id', 'submit_time'] },
          { name: 'idx_midjourneys_submit_time', columnNames: ['submit_time'] },
          // The polling job reads unfinished tasks by progress.
          { name: 'idx_midjourneys_progress', columnNames: ['progress'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          id,
          bigint('created_at'),
          bigint('updated_at'),
          varchar('task_id', 191),
          varchar('platform', 30),
          int('user_id'),
          int('token_id'),
          bigint('token_quota'),
          int('channel_id'),
          bigint('quota'),
          varchar('action', 40),
          varchar('status', 20),
          text('fail_reason'),
          bigint('submit_time'),
          bigint('start_time'),
          bigint('finish_time'),
          varchar('progress', 20),
          text('properties'),
          text('data'),
        ],
        indices: [
          { name: 'idx_tasks_task_id', columnNames: ['task_id'] },
          { name: 'idx_tasks_user_id_submit_time', columnNames: ['user_id', 'submit_time'] },
          { name: 'idx_tasks_submit_time', columnNames: ['submit_time'] },
          { name: 'idx_tasks_status', columnNames: ['status'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['tasks', 'midjourneys']) await queryRunner.dropTable(table, true);
  }
}
