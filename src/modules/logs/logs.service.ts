import { Injectable } from '@nestjs/common';
import { EntityManager, LessThan, LessThanOrEqual, Repository, SelectQueryBuilder } from 'typeorm';
import { LIKE_ESCAPE, likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { nowSeconds } from '../../database/columns';
import { caseInsensitiveLike, likeCondition, queryAnyDialect, sqlDialect } from '../../database/dialect';
import { LogDatabase } from '../../database/log-database';
import { LOG_TYPE_CONSUME, LOG_TYPE_MANAGE, LOG_TYPE_SYSTEM, LOG_TYPE_TOPUP, LogEntity } from './entities/log.entity';
import { LogPartitionsService } from './log-partitions.service';
import { toAdminLogView, toLogView } from './log.view';
import { LogWriter } from './log-writer';
import { logTextColumns, type LogText } from './log-text';
import { AdminLogView, LogStat, LogView } from './log.wire';

/** Which entries a list or a statistic covers. Absent or empty fields do not filter. */
export interface LogFilter {
  /** 0 or absent: every type. */
  type?: number;
  /** Set for the self endpoints: the caller's own entries only. */
  userId?: number;
  username?: string;
  tokenName?: string;
  /** A literal substring of the model name. */
  modelName?: string;
  group?: string;
  /** Unix seconds, inclusive. */
  startTimestamp?: number;
  endTimestamp?: number;
  channelId?: number;
  /** 0 or absent: every entry. */
  subscriptionId?: number;
}

/** Whose entry a top-up, management or system row is. */
export interface LogSubject {
  id: number;
  username: string;
}

/** Columns a caller may set on a new entry; created_at is stamped here. */
export type NewLogEntry = Partial<Omit<LogEntity, 'id' | 'created_at'>> & Pick<LogEntity, 'type' | 'user_id'>;

/** One request a channel relayed, as the upstream detection reads it. */
export interface ChannelTrafficEntry {
  group: string;
  createdAt: number;
  /** The relay path it came in on ('/chat/completions', '/messages', …), '' when unknown. */
  requestPath: string;
}

const RATE_WINDOW_SECONDS = 60;
/** The log list's total stops counting here (or one page past the page asked for). */
const COUNT_CAP = 10_000;
/**
 * Rows removed per statement when clearing old logs. Each chunk touches the table and its seven
 * indexes, and while it runs the relay's own writes (holds, settlements) wait for it (on SQLite
 * the whole event loop does), so chunks stay small and the relay gets at least as much time
 * between them as a chunk took (never less than DELETE_PAUSE_MS).
 */
const DELETE_CHUNK = 250;
const DELETE_PAUSE_MS = 10;
/** Past this many matching model names (or names in the log, on SQLite and PostgreSQL) the model filter scans with LIKE instead. */
const MODEL_NAME_MATCH_LIMIT = 500;
const MODEL_NAME_WALK_LIMIT = 5_000;

/**
 * Reads the usage log for the log pages, and writes the non-consume entries other modules
 * record. Reads and retention go to the log database (LOG_SQL_DSN, else the main one); writes
 * go through LogWriter, in the main database.
 */
@Injectable()
export class LogsService {
  private readonly logs: Repository<LogEntity>;

  constructor(
    private readonly logDatabase: LogDatabase,
    private readonly writer: LogWriter,
    private readonly partitions: LogPartitionsService,
  ) {
    this.logs = logDatabase.dataSource.getRepository(LogEntity);
  }

  /** Inserts one entry now; pass the manager to write it inside the caller's transaction. */
  async record(entry: NewLogEntry, manager?: EntityManager): Promise<void> {
    await this.writer.insert({ ...entry, created_at: nowSeconds() }, manager);
  }

  recordTopUp(user: LogSubject, text: LogText, quota: number, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_TOPUP, user_id: user.id, username: user.username, ...logTextColumns(text), quota }, manager);
  }

  recordManage(user: LogSubject, text: LogText, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_MANAGE, user_id: user.id, username: user.username, ...logTextColumns(text) }, manager);
  }

  recordSystem(user: LogSubject, text: LogText, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_SYSTEM, user_id: user.id, username: user.username, ...logTextColumns(text) }, manager);
  }

  async listForAdmin(filter: LogFilter, page: PageQuery): Promise<Page<AdminLogView>> {
    const [rows, total, capped] = await this.page(filter, page);
    return toPage(page, total, rows.map(toAdminLogView), capped);
  }

  async listForUser(filter: LogFilter & { userId: number }, page: PageQuery): Promise<Page<LogView>> {
    const [rows, total, capped] = await this.page(filter, page);
    return toPage(page, total, rows.map(toLogView), capped);
  }

  /** As mature gateways count it: quota over the filter, rpm and tpm over the last minute. */
  async stat(filter: LogFilter): Promise<LogStat> {
    const consume = { ...filter, type: LOG_TYPE_CONSUME };
    const quotaRow = await (await this.filtered(consume)).select('COALESCE(SUM(log.quota), 0)', 'quota').getRawOne<{ quota: string | number }>();
    const recent = { ...consume, startTimestamp: nowSeconds() - RATE_WINDOW_SECONDS, endTimestamp: undefined };
    const rateRow = await (await this.filtered(recent))
      .select('COUNT(*)', 'rpm')
      .addSelect('COALESCE(SUM(log.prompt_tokens), 0) + COALESCE(SUM(log.completion_tokens), 0)', 'tpm')
      .getRawOne<{ rpm: string | number; tpm: string | number }>();
    return { quota: Number(quotaRow?.quota ?? 0), rpm: Number(rateRow?.rpm ?? 0), tpm: Number(rateRow?.tpm ?? 0) };
  }

  /**
   * Removes entries created before the given unix time; answers how many. On MySQL and
   * PostgreSQL every month partition wholly before it is dropped first (instant; its rows
   * counted as LogPartitionsService.dropMonthsBefore says). What is left, the partial month
   * (or everything, on SQLite), goes in chunks of about DELETE_CHUNK of the oldest (a chunk ends at a second's boundary), each
   * its own short statement with a pause between, so relay requests, settlement batches and
   * log reads are never held up for long. On SQLite each chunk's pages are checkpointed at
   * once: left to the timed checkpoint, a second of deleting would be copied in one blocking go.
   */
  async deleteBefore(targetTimestamp: number): Promise<number> {
    let removed = await this.partitions.dropMonthsBefore(targetTimestamp);
    for (;;) {
      const started = performance.now();
      // The created_at of the chunk's last row, read from its index alone (no sort, no table).
      const [bound] = await this.logs
        .createQueryBuilder('log')
        .select('log.created_at', 'created_at')
        .where('log.created_at < :target', { target: targetTimestamp })
        .orderBy('log.created_at', 'ASC')
        .offset(DELETE_CHUNK - 1)
        .limit(1)
        .getRawMany<{ created_at: number | string }>();
      const result = await this.logs.delete({ created_at: bound ? LessThanOrEqual(Number(bound.created_at)) : LessThan(targetTimestamp) });
      removed += result.affected ?? 0;
      await this.logDatabase.sql.checkpoint();
      if (!bound) return removed;
      await new Promise((resolve) => setTimeout(resolve, Math.max(DELETE_PAUSE_MS, performance.now() - started)));
    }
  }

  /**
   * The newest consume entries relayed through one channel since a unix time, newest first and
   * at most `limit`: the group, time and request path of each, read along (channel_id, created_at).
   */
  async recentChannelTraffic(channelId: number, since: number, limit: number): Promise<ChannelTrafficEntry[]> {
    const rows = await this.logs
      .createQueryBuilder('log')
      .select(['log.group', 'log.created_at', 'log.other'])
      .where('log.channel_id = :channelId', { channelId })
      .andWhere('log.created_at >= :since', { since })
      .andWhere('log.type = :type', { type: LOG_TYPE_CONSUME })
      .orderBy('log.created_at', 'DESC')
      .limit(limit)
      .getMany();
    return rows.map((row) => ({ group: row.group, createdAt: Number(row.created_at), requestPath: requestPathOf(row.other) }));
  }

  /** The page's rows, the total counted up to the cap, and whether there are more than that. */
  private async page(filter: LogFilter, page: PageQuery): Promise<[LogEntity[], number, boolean]> {
    const query = await this.filtered(filter);
    // Newest first by created_at alone: every filter's index is (column, created_at), which hands the rows over in that order.
    const rows = await query.clone().orderBy('log.created_at', 'DESC').offset(page.offset).limit(page.pageSize).getMany();
    const cap = Math.max(COUNT_CAP, page.offset + page.pageSize + 1);
    // One row past the cap tells "exactly 10,000" from "more".
    const counted = await this.countUpTo(query, cap + 1);
    return [rows, Math.min(counted, cap), counted > cap];
  }

  /**
   * How many entries match, counting no further than `cap`: an exact count over tens of
   * millions of rows takes seconds, and nobody pages that far (filters narrow it instead).
   */
  private async countUpTo(query: SelectQueryBuilder<LogEntity>, cap: number): Promise<number> {
    const [sql, parameters] = query.clone().select('log.id').limit(cap).getQueryAndParameters();
    const [row] = await this.logs.query(`SELECT COUNT(*) AS n FROM (${sql}) capped`, parameters);
    return Number(row?.n ?? 0);
  }

  /**
   * The distinct model names in the log that contain `text` (the model filter is a substring
   * match), or undefined past MODEL_NAME_MATCH_LIMIT of them. The names come off
   * idx_logs_model_name_created_at one seek each: MySQL and MariaDB skip through the index for
   * DISTINCT by themselves; SQLite and PostgreSQL cannot, so a recursive query walks it (at
   * most MODEL_NAME_WALK_LIMIT names). The filter then becomes an exact `IN`, which every
   * database reads in created_at order, instead of a LIKE over every row.
   */
  private async modelNamesContaining(text: string): Promise<string[] | undefined> {
    const pattern = likeContains(text);
    const dialect = sqlDialect(this.logs.manager);
    const like = caseInsensitiveLike(dialect);
    let names: string[];
    if (dialect !== 'mysql') {
      const rows = await queryAnyDialect<{ name: string; n: number }>(
        this.logs.manager,
        `WITH RECURSIVE names (name, n) AS (
           SELECT MIN(model_name), 1 FROM logs
           UNION ALL
           SELECT (SELECT MIN(l.model_name) FROM logs l WHERE l.model_name > names.name), n + 1 FROM names WHERE names.name IS NOT NULL AND n <= ?
         )
         SELECT name, n FROM names WHERE name IS NOT NULL AND (n > ? OR name ${like} ? ${LIKE_ESCAPE})`,
        [MODEL_NAME_WALK_LIMIT, MODEL_NAME_WALK_LIMIT, pattern],
      );
      if (rows.some((row) => row.n > MODEL_NAME_WALK_LIMIT)) return undefined;
      names = rows.map((row) => row.name);
    } else {
      const rows: Array<{ name: string }> = await this.logs.query(
        `SELECT name FROM (SELECT DISTINCT model_name AS name FROM logs) names WHERE name LIKE ? ${LIKE_ESCAPE} LIMIT ${MODEL_NAME_MATCH_LIMIT + 1}`,
        [pattern],
      );
      names = rows.map((row) => row.name);
    }
    return names.length > MODEL_NAME_MATCH_LIMIT ? undefined : names;
  }

  private async filtered(filter: LogFilter): Promise<SelectQueryBuilder<LogEntity>> {
    const query = this.logs.createQueryBuilder('log');
    if (filter.type) query.andWhere('log.type = :type', { type: filter.type });
    if (filter.userId !== undefined) query.andWhere('log.user_id = :userId', { userId: filter.userId });
    if (filter.username) query.andWhere('log.username = :username', { username: filter.username });
    if (filter.tokenName) query.andWhere('log.token_name = :tokenName', { tokenName: filter.tokenName });
    if (filter.modelName) {
      const names = await this.modelNamesContaining(filter.modelName);
      if (!names) query.andWhere(likeCondition(query.connection, 'log.model_name', 'modelName'), { modelName: likeContains(filter.modelName) });
      else if (names.length === 0) query.andWhere('1 = 0');
      else query.andWhere('log.model_name IN (:...modelNames)', { modelNames: names });
    }
    if (filter.group) query.andWhere('log.group = :group', { group: filter.group });
    if (filter.subscriptionId) query.andWhere('log.subscription_id = :subscriptionId', { subscriptionId: filter.subscriptionId });
    if (filter.startTimestamp) query.andWhere('log.created_at >= :start', { start: filter.startTimestamp });
    if (filter.endTimestamp) query.andWhere('log.created_at <= :end', { end: filter.endTimestamp });
    if (filter.channelId) query.andWhere('log.channel_id = :channelId', { channelId: filter.channelId });
    return query;
  }
}

/** other.request_path of an entry, '' when absent or not JSON. */
function requestPathOf(other: string | null): string {
  if (!other) return '';
  try {
    const parsed = JSON.parse(other) as { request_path?: unknown };
    return typeof parsed.request_path === 'string' ? parsed.request_path : '';
  } catch {
    return '';
  }
}
