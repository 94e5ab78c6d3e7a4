import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `"id" varchar(40) PRIMARY KEY NOT NULL, "token_id" integer NOT NULL DEFAULT (0), "user_id" integer NOT NULL, "from_token" bigint NOT NULL DEFAULT (0), "from_user" bigint NOT NULL DEFAULT (0), "created_at" bigint NOT NULL DEFAULT (0)`;

/**
 * SQLite only: the hold journal keyed by its id alone (WITHOUT ROWID). A rowid table keeps its
 * text primary key in a second b-tree, so every hold batch wrote two journal pages to the
 * write-ahead log where one will do. MySQL's InnoDB already clusters rows by primary key;
 * PostgreSQL keeps every table as a heap beside its indexes, and has no such option.
 * SQLite cannot change a table that way in place: the rows move to a new table.
 */
export class QuotaHoldsWithoutRowid1795480000000 implements MigrationInterface {
  name = 'QuotaHoldsWithoutRowid1795480000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    await this.rebuild(queryRunner, ' WITHOUT ROWID');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    await this.rebuild(queryRunner, '');
  }

  private async rebuild(queryRunner: QueryRunner, tableOptions: string): Promise<void> {
    await queryRunner.query(`CREATE TABLE "quota_holds_rebuilt" (${COLUMNS})${tableOptions}`);
    await queryRunner.query('INSERT INTO "quota_holds_rebuilt" SELECT "id", "token_id", "user_id", "from_token", "from_user", "created_at" FROM "quota_holds"');
    await queryRunner.query('DROP TABLE "quota_holds"');
    await queryRunner.query('ALTER TABLE "quota_holds_rebuilt" RENAME TO "quota_holds"');
  }
}
