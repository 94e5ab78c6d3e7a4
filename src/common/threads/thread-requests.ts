import { Worker } from 'node:worker_threads';

/** What a worker script posts back for each `{ id, …request }` it receives: its result, or the error it caught. */
export type ThreadAnswer = { id: number; result?: unknown } | { id: number; error: { message: string; code?: string } };

interface ThreadRequestsOptions {
  /** What the worker is, for the error when it dies ("the token counter"). */
  name: string;
  workerData?: unknown;
  /** The error a request is rejected with; `code` is the worker's (SQLite's SQLITE_BUSY, say), or 'THREAD_EXITED' when the worker died. */
  toError?: (message: string, code: string | undefined) => Error;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * Requests to a worker thread, each answered once. The worker starts on the first request and
 * keeps the process alive only while requests are outstanding. If it dies, every outstanding
 * request is rejected and the next one starts a new worker.
 */
export class ThreadRequests<Request extends object> {
  private worker?: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly script: string,
    private readonly options: ThreadRequestsOptions,
  ) {}

  /** Nothing sent is still running or waiting. */
  get idle(): boolean {
    return this.waiting.size === 0;
  }

  send<Result>(request: Request): Promise<Result> {
    const worker = this.startedWorker();
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, ...request });
    });
  }

  /** Sends `last` (when given) and waits for its answer, then ends the worker. */
  async stop(last?: Request): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    if (last) await this.send(last).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private answer(answer: ThreadAnswer): void {
    const waiting = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if ('error' in answer) waiting?.reject(this.error(answer.error.message, answer.error.code));
    else waiting?.resolve(answer.result);
  }

  private error(message: string, code: string | undefined): Error {
    return this.options.toError ? this.options.toError(message, code) : new Error(message);
  }

  private startedWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { workerData: this.options.workerData });
    worker.on('message', (answer: ThreadAnswer) => this.answer(answer));
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(this.error(`${this.options.name} exited with code ${code}`, 'THREAD_EXITED')));
    // After the listeners: adding a message listener refs the worker again. Idle, it must not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
