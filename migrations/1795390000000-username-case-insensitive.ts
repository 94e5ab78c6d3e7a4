import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usernames are unique regardless of case ("ROOT" beside "root" was possible on SQLite, whose
 * `=` is case-sensitive). Accounts registered later under a case-variant of an earlier name
 * are renamed to `<name>_<id>` first, so the unique index can be built; the earliest keeps its name.
 * PostgreSQL indexes lower(username), the form UsersService.usernameTaken compares.
 */
export class UsernameCaseInsensitive1795390000000 implements MigrationInterface {
  name = 'UsernameCaseInsensitive1795390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = queryRunner.connection.options.type;
    const rename = dialect === 'postgres' ? 'UPDATE users SET username = $1 WHERE id = $2' : 'UPDATE users SET username = ? WHERE id = ?';
    const rows: Array<{ id: number; username: string }> = await queryRunner.query('SELECT id, username FROM users ORDER BY id');
    const seen = new Set<string>();
    for (const row of rows) {
      const folded = row.username.toLowerCase();
      if (!seen.has(folded)) {
        seen.add(folded);
        continue;
      }
      const renamed = `${row.username.slice(0, 63 - String(row.id).length)}_${row.id}`;
      await queryRunner.query(rename, [renamed, row.id]);
      seen.add(renamed.toLowerCase());
    }
    if (dialect === 'mysql') {
      // MySQL compares with the column's collation: pin a case-insensitive one, whatever the server's default.
      await queryRunner.query("ALTER TABLE users MODIFY username varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL");
    } else if (dialect === 'postgres') {
      await queryRunner.query('DROP INDEX idx_users_username');
      await queryRunner.query('CREATE UNIQUE INDEX idx_users_username ON users (lower(username))');
    } else {
      await queryRunner.query('DROP INDEX idx_users_username');
      await queryRunner.query('CREATE UNIQUE INDEX idx_users_username ON users (username COLLATE NOCASE)');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') return;
    await queryRunner.query('DROP INDEX idx_users_username');
    await queryRunner.query('CREATE UNIQUE INDEX idx_users_username ON users (username)');
  }
}
