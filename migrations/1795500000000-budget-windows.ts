import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Budget windows and rate limits on tokens and users: the settings as columns of each
 * (`budget_windows` JSON text, `rpm_limit`, `tpm_limit`), and `budget_usage`, one row per
 * holder and period holding the open window's start, reset and use. The row is rolled over in
 * place by a conditional UPDATE (see BudgetWindowService), so it never needs a second row.
 */
export class BudgetWindows1795500000000 implements MigrationInterface {
  name = 'BudgetWindows1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['tokens', 'users']) {
      await queryRunner.addColumns(table, [
        new TableColumn({ name: 'budget_windows', type: 'text', isNullable: true }),
        new TableColumn({ name: 'rpm_limit', type: 'integer', default: 0 }),
        new TableColumn({ name: 'tpm_limit', type: 'integer', default: 0 }),
      ]);
    }
    await queryRunner.createTable(
      new Table({
        name: 'budget_usage',
        columns: [
          { name: 'holder_kind', type: 'varchar', length: '8', isPrimary: true },
          { name: 'holder_id', type: 'integer', isPrimary: true },
          { name: 'period', type: 'varchar', length: '8', isPrimary: true },
          { name: 'window_start', type: 'bigint', default: 0 },
          { name: 'resets_at', type: 'bigint', default: 0 },
          { name: 'used', type: 'bigint', default: 0 },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('budget_usage', true);
    for (const table of ['tokens', 'users']) {
      for (const column of ['budget_windows', 'rpm_limit', 'tpm_limit']) await queryRunner.dropColumn(table, column);
    }
  }
}
