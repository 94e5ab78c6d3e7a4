import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GuardedGroup, Statement } from './raw-sql';

type WriterRequest =
  | { kind: 'run'; statements: Statement[] }
  | { kind: 'select'; statement: Statement }
  | { kind: 'guarded'; groups: GuardedGroup[]; combined?: GuardedGroup }
  | { kind: 'pragma'; pragma: string }
  | { kind: 'close' };

type WriterAnswer = { id: number; result?: unknown } | { id: number; error: { message: string; code?: string } };

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

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
  private worker?: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly databasePath: string,
    private readonly pragmas: readonly string[],
  ) {}

  /** Nothing sent is still running or waiting: the thread is not writing. */
  get idle(): boolean {
    return this.waiting.size === 0;
  }

  runInTransaction(statements: Statement[]): Promise<void> {
    return this.send({ kind: 'run', statements }) as Promise<void>;
  }

  applyGuarded(groups: GuardedGroup[], combined?: GuardedGroup): Promise<number[]> {
    return this.send({ kind: 'guarded', groups, combined }) as Promise<number[]>;
  }

  select<Row>(statement: Statement): Promise<Row[]> {
    return this.send({ kind: 'select', statement }) as Promise<Row[]>;
  }

  pragma(pragma: string): Promise<unknown> {
    return this.send({ kind: 'pragma', pragma });
  }

  /** Closes the worker's connection once everything sent before has run. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.send({ kind: 'close' }).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private send(request: WriterRequest): Promise<unknown> {
    const worker = this.startedWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, ...request });
    });
  }

  private answer(answer: WriterAnswer): void {
    const waiting = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    // An idle writer must not keep the process alive; one with writes outstanding must.
    if (this.waiting.size === 0) this.worker?.unref();
    if ('error' in answer) waiting?.reject(new SqliteWriteError(answer.error.message, answer.error.code));
    else waiting?.resolve(answer.result);
  }

  private startedWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, 'sqlite-writer.worker.js'), { workerData: { path: this.databasePath, pragmas: this.pragmas } });
    worker.on('message', (answer: WriterAnswer) => this.answer(answer));
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new SqliteWriteError(`the SQLite writer thread exited with code ${code}`, 'SQLITE_IOERR')));
    this.worker = worker;
    return worker;
  }
}
