'use strict';
/*
 * The relay's SQLite writes, on a thread of their own (see SqliteWriter). Plain CommonJS, so
 * the same file runs under the tests and from dist/ (copied there as a Nest asset).
 *
 * workerData: { path, pragmas: string[] }
 * Messages in, each with an id:
 *   { kind: 'run', statements }            all in one transaction
 *   { kind: 'select', statement }          answers the rows
 *   { kind: 'guarded', groups }            see RawSql.applyGuarded; answers failures per group
 *   { kind: 'pragma', pragma }             a checkpoint, PRAGMA optimize
 *   { kind: 'close' }
 * Messages out: { id, result } or { id, error: { message, code } }
 */
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const { guardedWriter, statementCache } = require('./sqlite-statements.js');

const db = new Database(workerData.path);
for (const pragma of workerData.pragmas) db.pragma(pragma);

const { run, all } = statementCache(db);

// IMMEDIATE: the write lock is taken at BEGIN, so a transaction never starts on a snapshot another connection has moved past.
const runAll = db.transaction((statements) => {
  for (const statement of statements) run(statement);
});
const applyGuarded = guardedWriter(db, run);

parentPort.on('message', (message) => {
  try {
    let result;
    if (message.kind === 'run') runAll.immediate(message.statements);
    else if (message.kind === 'select') result = all(message.statement);
    else if (message.kind === 'guarded') result = applyGuarded(message.groups);
    else if (message.kind === 'pragma') result = db.pragma(message.pragma);
    else if (message.kind === 'close') db.close();
    parentPort.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: error.message, code: error.code } });
  }
});
