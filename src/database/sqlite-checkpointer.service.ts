import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RawSql } from './raw-sql';

const CHECKPOINT_INTERVAL_MS = 1000;
/** SQLite's advice: PRAGMA optimize at start and every few hours. */
const OPTIMIZE_INTERVAL_MS = 6 * 3600 * 1000;
const WORKER_CLOSE_WAIT_MS = 5000;

type WorkerAnswer = { ok: true } | { ok: false; error: string };

/**
 * Runs SQLite's WAL checkpoint once a second instead of every 1000 written pages (SQLite's
 * default). Under load the same hot pages (users, tokens, log tails) are rewritten thousands
 * of times a second; a timed checkpoint copies each of them once, measured ~15% more relay
 * throughput. Automatic checkpoints are off in data-source-options.
 *
 * The copying happens in a worker thread on its own connection: under load a second's worth of
 * log pages took the event loop 20–40 ms, a stall every request in flight waited through.
 * That checkpoint alone never lets the WAL restart (the relay writes more while it copies, so it
 * never finishes, and the WAL would grow without bound), so once it is done the main
 * connection copies the few frames written meanwhile: that one completes, and the next write
 * starts the WAL over. Without the worker (it failed to start or died), the main connection
 * does all of it, as before.
 *
 * It also keeps the planner's statistics fresh (PRAGMA optimize at start and every 6 hours).
 */
@Injectable()
export class SqliteCheckpointerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SqliteCheckpointerService.name);
  private timer?: NodeJS.Timeout;
  private optimizeTimer?: NodeJS.Timeout;
  private worker?: Worker;
  /** A checkpoint is running in the worker: the next tick skips rather than queue another. */
  private copying = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sql: RawSql,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.database.type !== 'sqlite') return;
    this.worker = this.startWorker();
    this.timer = setInterval(() => this.checkpoint(), CHECKPOINT_INTERVAL_MS);
    this.timer.unref();
    this.runLogged('optimize', () => this.sql.optimize());
    this.optimizeTimer = setInterval(() => this.runLogged('optimize', () => this.sql.optimize()), OPTIMIZE_INTERVAL_MS);
    this.optimizeTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.optimizeTimer) clearInterval(this.optimizeTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Its connection closes before TypeORM's, so the main connection, closing last, finishes the WAL.
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), WORKER_CLOSE_WAIT_MS).unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') await worker.terminate();
  }

  private checkpoint(): void {
    if (!this.worker) return this.runLogged('checkpoint', () => this.sql.checkpoint());
    if (this.copying) return;
    this.copying = true;
    this.worker.postMessage('checkpoint');
  }

  private startWorker(): Worker | undefined {
    if (this.config.database.sqlitePath === ':memory:') return undefined;
    let worker: Worker;
    try {
      worker = new Worker(path.join(__dirname, 'sqlite-checkpoint.worker.js'), { workerData: { path: this.config.database.sqlitePath } });
    } catch (error) {
      this.logger.warn(`checkpoints run on the main thread: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    worker.on('message', (answer: WorkerAnswer) => {
      this.copying = false;
      if (!answer.ok) this.logger.warn(`checkpoint failed: ${answer.error}`);
      // The frames written while the worker copied: few, and this checkpoint completes.
      if (this.worker === worker) this.runLogged('checkpoint', () => this.sql.checkpoint());
    });
    const fallBack = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.copying = false;
      this.logger.warn(`checkpoint worker stopped (${reason}); checkpoints run on the main thread`);
    };
    worker.on('error', (error) => fallBack(error.message));
    worker.on('exit', (code) => fallBack(`exit code ${code}`));
    // After the listeners: adding a message listener refs the worker's port again.
    worker.unref();
    return worker;
  }

  private runLogged(what: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.logger.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
