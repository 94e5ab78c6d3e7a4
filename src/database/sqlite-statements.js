'use strict';
/*
 * Statements on a better-sqlite3 connection, shared by the event loop (RawSql, for a lone hold)
 * and the writer thread (sqlite-writer.worker.js). Plain CommonJS, so the worker can load it
 * under the tests and from dist/ (copied there as a Nest asset).
 */

/** `run` and `all` for `{ sql, parameters }` statements, each SQL text prepared once per connection. */
function statementCache(db) {
  const prepared = new Map();
  const statementFor = (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    /** Answers the rows the statement changed. */
    run: (statement) => statementFor(statement.sql).run(statement.parameters).changes,
    all: (statement) => statementFor(statement.sql).all(statement.parameters),
  };
}

/**
 * A function that runs `applyGuarded(groups)` in one IMMEDIATE transaction on `db`,
 * with `run(statement)` answering the rows a statement changed. See RawSql.applyGuarded.
 */
function guardedWriter(db, run) {
  /** A group's updates in order; at the first that changes no row (its guard failed) the earlier ones are taken back. Answers its index, or -1. */
  function applyInOrder(updates) {
    for (let index = 0; index < updates.length; index++) {
      if (run(updates[index]) > 0) continue;
      for (let earlier = index - 1; earlier >= 0; earlier--) run(updates[earlier].undo);
      return index;
    }
    return -1;
  }

  /** A group applied whole, then its record (the hold journal's rows); answers as applyInOrder. */
  function applyGroup(group) {
    const failed = applyInOrder(group.updates);
    if (failed < 0) for (const statement of group.record) run(statement);
    return failed;
  }

  const transaction = db.transaction((groups) => groups.map(applyGroup));
  // IMMEDIATE: the write lock is taken at BEGIN, so no write is refused for a snapshot another connection has moved past.
  return (groups) => transaction.immediate(groups);
}

module.exports = { statementCache, guardedWriter };
