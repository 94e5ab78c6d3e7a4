import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, LessThanOrEqual, Repository, SelectQueryBuilder } from 'typeorm';
import { LIKE_ESCAPE, likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { nowSeconds } from '../../database/columns';
import { LOG_TYPE_CONSUME, LOG_TYPE_MANAGE, LOG_TYPE_SYSTEM, LOG_TYPE_TOPUP, LogEntity } from './entities/log.entity';
import { toAdminLogView, toLogView } from './log.view';
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
}

/** Whose entry a top-up, management or system row is. */
export interface LogSubject {
  id: number;
  username: string;
}

/** Columns a caller may set on a new entry; created_at is stamped here. */
export type NewLogEntry = Partial<Omit<LogEntity, 'id' | 'created_at'>> & Pick<LogEntity, 'type' | 'user_id'>;

const RATE_WINDOW_SECONDS = 60;
/** The log list's total stops counting here (or one page past the page asked for). */
const COUNT_CAP = 10_000;
/** Rows removed per statement when clearing old logs. */
const DELETE_CHUNK = 5_000;

/** Reads the usage log for the log pages, and writes the non-consume entries other modules record. */
@Injectable()
export class LogsService {
  constructor(@InjectRepository(LogEntity) private readonly logs: Repository<LogEntity>) {}

  /** Inserts one entry now; pass the manager to write it inside the caller's transaction. */
  async record(entry: NewLogEntry, manager: EntityManager = this.logs.manager): Promise<void> {
    await manager.insert(LogEntity, { ...entry, created_at: nowSeconds() });
  }

  recordTopUp(user: LogSubject, content: string, quota: number, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_TOPUP, user_id: user.id, username: user.username, content, quota }, manager);
  }

  recordManage(user: LogSubject, content: string, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_MANAGE, user_id: user.id, username: user.username, content }, manager);
  }

  recordSystem(user: LogSubject, content: string, manager?: EntityManager): Promise<void> {
    return this.record({ type: LOG_TYPE_SYSTEM, user_id: user.id, username: user.username, content }, manager);
  }

  async listForAdmin(filter: LogFilter, page: PageQuery): Promise<Page<AdminLogView>> {
    const [rows, total] = await this.page(filter, page);
    return toPage(page, total, rows.map(toAdminLogView));
  }

  async listForUser(filter: LogFilter & { userId: number }, page: PageQuery): Promise<Page<LogView>> {
    const [rows, total] = await this.page(filter, page);
    return toPage(page, total, rows.map(toLogView));
  }

  /** As mature gateways count it: quota over the filter, rpm and tpm over the last minute. */
  async stat(filter: LogFilter): Promise<LogStat> {
    const consume = { ...filter, type: LOG_TYPE_CONSUME };
    const quotaRow = await this.filtered(consume).select('COALESCE(SUM(log.quota), 0)', 'quota').getRawOne<{ quota: string | number }>();
    const recent = { ...consume, startTimestamp: nowSeconds() - RATE_WINDOW_SECONDS, endTimestamp: undefined };
    const rateRow = await this.filtered(recent)
      .select('COUNT(*)', 'rpm')
      .addSelect('COALESCE(SUM(log.prompt_tokens), 0) + COALESCE(SUM(log.completion_tokens), 0)', 'tpm')
      .getRawOne<{ rpm: string | number; tpm: string | number }>();
    return { quota: Number(quotaRow?.quota ?? 0), rpm: Number(rateRow?.rpm ?? 0), tpm: Number(rateRow?.tpm ?? 0) };
  }

  /**
   * Removes entries created before the given unix time; answers how many. Millions of rows go
   * in chunks of about DELETE_CHUNK of the oldest (a chunk ends at a second's boundary), each
   * its own short statement with a turn of the event loop between, so settlement batches and
   * log reads are never held up for long.
   */
  async deleteBefore(targetTimestamp: number): Promise<number> {
    let removed = 0;
    for (;;) {
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
      if (!bound) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async page(filter: LogFilter, page: PageQuery): Promise<[LogEntity[], number]> {
    const query = this.filtered(filter);
    const rows = await query.clone().orderBy('log.id', 'DESC').offset(page.offset).limit(page.pageSize).getMany();
    return [rows, await this.countUpTo(query, Math.max(COUNT_CAP, page.offset + page.pageSize + 1))];
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

  private filtered(filter: LogFilter): SelectQueryBuilder<LogEntity> {
    const query = this.logs.createQueryBuilder('log');
    if (filter.type) query.andWhere('log.type = :type', { type: filter.type });
    if (filter.userId !== undefined) query.andWhere('log.user_id = :userId', { userId: filter.userId });
    if (filter.username) query.andWhere('log.username = :username', { username: filter.username });
    if (filter.tokenName) query.andWhere('log.token_name = :tokenName', { tokenName: filter.tokenName });
    if (filter.modelName) query.andWhere(`log.model_name LIKE :modelName ${LIKE_ESCAPE}`, { modelName: likeContains(filter.modelName) });
    if (filter.group) query.andWhere('log.group = :group', { group: filter.group });
    if (filter.startTimestamp) query.andWhere('log.created_at >= :start', { start: filter.startTimestamp });
    if (filter.endTimestamp) query.andWhere('log.created_at <= :end', { end: filter.endTimestamp });
    if (filter.channelId) query.andWhere('log.channel_id = :channelId', { channelId: filter.channelId });
    return query;
  }
}
