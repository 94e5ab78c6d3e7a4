import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { describeDatabaseError } from '../../database/database-unavailable';
import { queryAnyDialect, sqlDialect } from '../../database/dialect';
import { LogDatabase } from '../../database/log-database';
import { RawSql, Statement } from '../../database/raw-sql';
import { LOG_COLUMNS, logColumnValues, type LogRow } from './log-writer';

const DRAIN_INTERVAL_MS = 200;
/** Outbox rows read per round; each round is one transaction on either side. */
const DRAIN_BATCH = 500;
const COPY_CHUNK = 100;
const COPY_COLUMNS = ['id', ...LOG_COLUMNS];

interface OutboxRow {
  id: number | string;
  payload: string;
}

/**
 * Copies the outboxed log rows (LogWriter) to the separate log database, off the request path,
 * in rounds of up to 500: on the master (NODE_TYPE) every 200 ms and at start (what a killed
 * process left), on every instance at shutdown (its last settlements). A round writes the rows
 * over there in one transaction, then deletes them from the outbox in another. A row keeps its
 * outbox id as its id, and the copy skips ids already present, so a round cut between the two
 * (a crash, an outage) is simply done again: no row is lost and none is written twice. For the
 * same reason two instances draining at once are harmless, only wasteful, which is why the
 * timer runs on the master alone, like the other jobs. Does nothing while the logs live in the
 * main database.
 */
@Injectable()
export class LogOutboxService implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(LogOutboxService.name);
  private timer?: NodeJS.Timeout;
  private tail: Promise<boolean> = Promise.resolve(true);
  private waiting = 0;
  private failingSince?: number;
  /** When a drain last left the outbox empty (Date.now()): every row outboxed since is still to be copied. */
  private caughtUpAt = Date.now();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logDatabase: LogDatabase,
    private readonly sql: RawSql,
    private readonly main: DataSource,
  ) {}

  /** Whether this instance copies the outbox on a timer: the master, when the logs live apart. */
  private get copiesOnTimer(): boolean {
    return this.logDatabase.separate && this.config.nodeType === 'master';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.logDatabase.separate) await this.raiseIdFloor();
    if (!this.copiesOnTimer) return;
    this.timer = setInterval(() => {
      if (this.waiting === 0) void this.drain();
    }, DRAIN_INTERVAL_MS);
    this.timer.unref();
    void this.drain();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Rows left behind stay in the outbox for the next start: a failed last drain loses nothing. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.drain();
  }

  /**
   * Moves the outbox's next id above every id in the log database. A copy skips ids already
   * there, so a row put there some other way (old logs imported before this start, a log
   * database used before) would otherwise hide the outbox row that came to share its id. Only
   * ever raised: ids handed out already stay unique.
   */
  private async raiseIdFloor(): Promise<void> {
    const [row] = await queryAnyDialect<{ top: number | string | null }>(this.logDatabase.dataSource, 'SELECT MAX(id) AS top FROM logs');
    const top = Number(row?.top ?? 0);
    if (top <= 0) return;
    const dialect = sqlDialect(this.main);
    if (dialect === 'sqlite') {
      // AUTOINCREMENT's counter: its row appears with the table's first insert.
      await queryAnyDialect(this.main, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'log_outbox' AND seq < ?", [top, top]);
      await queryAnyDialect(this.main, "INSERT INTO sqlite_sequence (name, seq) SELECT 'log_outbox', ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'log_outbox')", [top]);
    } else if (dialect === 'postgres') {
      const sequence = "pg_get_serial_sequence('log_outbox', 'id')";
      await queryAnyDialect(this.main, `SELECT setval(${sequence}, ?) WHERE ? > COALESCE(pg_sequence_last_value(${sequence}::regclass), 0)`, [top, top]);
    } else {
      // InnoDB never sets the counter at or below an id in the table, so a stale reading here only costs a needless ALTER.
      const [counter] = await queryAnyDialect<{ next: number | string | null }>(this.main, "SELECT AUTO_INCREMENT AS next FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'log_outbox'");
      if (Number(counter?.next ?? 0) <= top) await this.main.query(`ALTER TABLE log_outbox AUTO_INCREMENT = ${top + 1}`);
    }
  }

  /**
   * How far the log database may trail the balances, in seconds: the time since the outbox was
   * last drained empty. Grows while the copy fails. 0 where nothing copies on a timer (no
   * separate log database, or a slave: the master's figure is the one to watch).
   */
  lagSeconds(): number {
    return this.copiesOnTimer ? (Date.now() - this.caughtUpAt) / 1000 : 0;
  }

  /**
   * Copies every row outboxed before the call; answers whether that all went through (a
   * failure is logged, not thrown: the rows wait for the next round). Ledger checks that
   * compare balances with the log database call it first, as shutdown does.
   */
  drain(): Promise<boolean> {
    if (!this.logDatabase.separate) return Promise.resolve(true);
    this.waiting++;
    const run = this.tail.then(async () => {
      this.waiting--;
      return this.copyAll();
    });
    this.tail = run;
    return run;
  }

  private async copyAll(): Promise<boolean> {
    const started = Date.now();
    try {
      while ((await this.copyRound()) === DRAIN_BATCH);
    } catch (error) {
      if (this.failingSince === undefined) {
        this.failingSince = Date.now();
        this.logger.error(`copying log rows to the log database failed, retrying: ${describeDatabaseError(error)}`);
      }
      return false;
    }
    this.caughtUpAt = started;
    if (this.failingSince !== undefined) {
      this.logger.log(`log rows copied again after ${Math.round((Date.now() - this.failingSince) / 1000)} s of failures`);
      this.failingSince = undefined;
    }
    return true;
  }

  /** One round: answers how many outbox rows it moved. */
  private async copyRound(): Promise<number> {
    const rows = await this.sql.select<OutboxRow>(`SELECT id, payload FROM log_outbox ORDER BY id LIMIT ${DRAIN_BATCH}`, []);
    if (rows.length === 0) return 0;
    const copies: Statement[] = [];
    const deletes: Statement[] = [];
    for (let start = 0; start < rows.length; start += COPY_CHUNK) {
      const chunk = rows.slice(start, start + COPY_CHUNK);
      copies.push({
        sql: this.logDatabase.sql.insertAbsentSql('logs', COPY_COLUMNS, chunk.length, 'id'),
        parameters: chunk.flatMap((row) => [Number(row.id), ...logColumnValues(JSON.parse(row.payload) as LogRow)]),
      });
      deletes.push({ sql: `DELETE FROM log_outbox WHERE id IN (${chunk.map(() => '?').join(', ')})`, parameters: chunk.map((row) => Number(row.id)) });
    }
    await this.logDatabase.sql.runInTransaction(copies);
    await this.sql.runInTransaction(deletes);
    return rows.length;
  }
}
