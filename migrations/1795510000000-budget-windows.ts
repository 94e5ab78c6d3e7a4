import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Budget windows and rate limits on tokens and users: the settings as columns of each
 * (`budget_windows` JSON text, `rpm_limit`, `tpm_limit`), and `budget_usage`, one row per
 * holder and period holding the open window's start, reset and use. The row is rolled over in
 * place by a conditional UPDATE (see BudgetWindowService), so it never needs a second row.
 * The hold journal notes the windows of each hold (`quota_holds.windows`).
 */
export class BudgetWindows1795510000000 implements MigrationInterface {
  name = 'BudgetWindows1795510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN on every dialect: TypeORM's addColumn rebuilds a SQLite table, which would lose quota_holds' WITHOUT ROWID.
    for (const table of ['tokens', 'users']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN budget_windows text NULL`);
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN rpm_limit integer NOT NULL DEFAULT 0`);
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN tpm_limit integer NOT NULL DEFAULT 0`);
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
    // The windows a journaled hold counts in, so a crash refund gives them back with the balance.
    await queryRunner.query('ALTER TABLE quota_holds ADD COLUMN windows text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE quota_holds DROP COLUMN windows');
    await queryRunner.dropTable('budget_usage', true);
    for (const table of ['tokens', 'users']) {
      for (const column of ['budget_windows', 'rpm_limit', 'tpm_limit']) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    }
  }
}
