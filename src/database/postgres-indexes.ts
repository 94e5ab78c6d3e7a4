/** Anything that runs a raw query: a DataSource, an EntityManager or a QueryRunner. */
interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** One secondary index of a PostgreSQL table, as `CREATE INDEX` that rebuilds it on the table of that name. */
export interface PostgresIndex {
  name: string;
  definition: string;
}

/**
 * The secondary indexes (not the primary key) of a table on PostgreSQL, read from pg_indexes.
 * TypeORM's getTable lists an index's columns in the table's column order, not the index's,
 * so rebuilding from it would turn (model_name, created_at) into (created_at, model_name).
 * A partitioned table's definitions say `ON ONLY`, which would skip the partitions: dropped here.
 */
export async function postgresIndexes(source: Queryable, table: string): Promise<PostgresIndex[]> {
  const rows = (await source.query(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
     WHERE i.schemaname = current_schema() AND i.tablename = $1 AND NOT x.indisprimary ORDER BY i.indexname`,
    [table],
  )) as PostgresIndex[];
  return rows.map((row) => ({ name: row.name, definition: row.definition.replace(' ON ONLY ', ' ON ') }));
}
