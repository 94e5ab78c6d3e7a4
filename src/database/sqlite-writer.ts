import path from 'node:path';
import { ThreadRequests } from '../common/threads/thread-requests';
import type { GuardedGroup, Statement } from './raw-sql';

type WriterRequest =
  | { kind: 'run'; statements: Statement[] }
  | { kind: 'select'; statement: Statement }
  | { kind: 'guarded'; groups: GuardedGroup[] }
  | { kind: 'pragma'; pragma: string }
  | { kind: 'close' };

/** A write the writer thread refused, with SQLite's code (SQLITE_BUSY, …) as better-sqlite3 gives it. */
export class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SqliteWriteError';
  }
}

/**
 * The relay's writes on SQLite (holds under load, settlements, usage buckets, the reads that
 * follow each settlement batch, checkpoints), run by a worker thread on a connection of its
 * own (sqlite-writer.worker.js). Node runs the relay on one thread; better-sqlite3 writes
 * synchronously, so on that thread every log row, hold and checkpoint (a sixth of a relayed
 * request's CPU) would stall every request. In the worker they use a second core, and
 * requests keep flowing while a batch commits. (A hold while the relay is quiet is taken on
 * the event loop instead: see RawSql.applyGuarded.)
 *
 * Both connections write the same file; SQLite lets one write at a time and the other waits
 * (busy_timeout). Each side begins its transactions IMMEDIATE (see data-source-options), so
 * none is refused for reading a snapshot that the other has moved past. The worker runs its
 * requests in the order they were sent.
 */
export class SqliteWriter {
  private readonly thread: ThreadRequests<WriterRequest>;

  constructor(databasePath: string, pragmas: readonly string[]) {
    this.thread = new ThreadRequests(path.join(__dirname, 'sqlite-writer.worker.js'), {
      name: 'the SQLite writer thread',
      workerData: { path: databasePath, pragmas },
      // A writer that died reads as an I/O failure: the request answers 503, like a database that is down.
      toError: (message, code) => new SqliteWriteError(message, code === 'THREAD_EXITED' ? 'SQLITE_IOERR' : code),
    });
  }

  /** Nothing sent is still running or waiting: the thread is not writing. */
  get idle(): boolean {
    return this.thread.idle;
  }

  runInTransaction(statements: Statement[]): Promise<void> {
    return this.thread.send({ kind: 'run', statements });
  }

  applyGuarded(groups: GuardedGroup[]): Promise<number[]> {
    return this.thread.send({ kind: 'guarded', groups });
  }

  select<Row>(statement: Statement): Promise<Row[]> {
    return this.thread.send({ kind: 'select', statement });
  }

  pragma(pragma: string): Promise<unknown> {
    return this.thread.send({ kind: 'pragma', pragma });
  }

  /** Closes the worker's connection once everything sent before has run. */
  close(): Promise<void> {
    return this.thread.stop({ kind: 'close' });
  }
}
