import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RawSql } from './raw-sql';

const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * Runs SQLite's WAL checkpoint once a second instead of every 1000 written pages (SQLite's
 * default). Under load the same hot pages (users, tokens, log tails) are rewritten thousands
 * of times a second; a timed checkpoint copies each of them once, measured ~15% more relay
 * throughput. It runs on the main connection so it always catches up and the WAL restarts
 * (a checkpoint from another connection never completes under continuous writes, and the WAL
 * would grow without bound). Automatic checkpoints are off in data-source-options.
 */
@Injectable()
export class SqliteCheckpointerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SqliteCheckpointerService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sql: RawSql,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.database.type !== 'sqlite') return;
    this.timer = setInterval(() => {
      try {
        this.sql.checkpoint();
      } catch (error) {
        this.logger.warn(`checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, CHECKPOINT_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
