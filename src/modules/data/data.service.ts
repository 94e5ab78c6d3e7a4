import { Injectable } from '@nestjs/common';
import { EntityManager, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { nowSeconds } from '../../database/columns';
import { sqlDialect } from '../../database/dialect';
import { LogDatabase } from '../../database/log-database';
import type { Granularity } from './dto/data-query.dto';
import { QuotaDataDailyEntity, QuotaDataEntity } from './entities/quota-data.entity';
import { ALL_USERS } from './usage-aggregator.service';
import { MAX_HOURLY_WINDOW_DAYS, type QuotaDataView } from './data.wire';

export interface DataWindow {
  start?: number;
  end?: number;
  granularity?: Granularity;
}

/** Whose buckets a read covers: one user's by id or by name, or everyone's (user id ALL_USERS). */
interface Owner {
  column: 'username' | 'user_id';
  value: string | number;
}

/** One rollup table and the index that holds an owner's window with its sums (MySQL is told to use it). */
interface Rollup {
  entity: typeof QuotaDataEntity | typeof QuotaDataDailyEntity;
  ownerWindowIndex: string;
}

const HOUR = 3600;
const DAY = 86_400;
const DEFAULT_SPAN = 7 * DAY;
/** The longest window one call covers. */
const MAX_SPAN = 366 * DAY;
/** Unix time 0 was a Thursday: shifting by four days makes weeks start on Monday (UTC). */
const WEEK_SHIFT = 4 * DAY;
const BUCKET_SQL: Record<Granularity, string> = {
  hour: 'q.created_at',
  day: `(q.created_at - (q.created_at % ${DAY}))`,
  week: `(q.created_at - ((q.created_at - ${WEEK_SHIFT}) % ${7 * DAY}))`,
};

const HOURLY: Rollup = { entity: QuotaDataEntity, ownerWindowIndex: 'idx_quota_data_owner_window' };
const DAILY: Rollup = { entity: QuotaDataDailyEntity, ownerWindowIndex: 'idx_quota_data_daily_owner_window' };

/**
 * PostgreSQL's memory for one sort or hash while the dashboard groups a window (set for that
 * query alone): a month of everyone's hourly buckets is ~150,000 rows, which the 4 MB default
 * sorts on disk (0.5 s instead of 0.1 s).
 */
const POSTGRES_GROUPING_MEMORY = '64MB';

/** Reads the aggregated usage for the data dashboard, from the log database (LogDatabase). */
@Injectable()
export class DataService {
  private readonly quotaData: Repository<QuotaDataEntity>;

  constructor(logDatabase: LogDatabase) {
    this.quotaData = logDatabase.dataSource.getRepository(QuotaDataEntity);
  }

  /** Admin: one user's usage by model (when `username` is given), else everyone's summed per model. */
  forAdmin(window: DataWindow, username?: string): Promise<QuotaDataView[]> {
    return username ? this.read(window, { column: 'username', value: username }) : this.read(window, { column: 'user_id', value: ALL_USERS });
  }

  forUser(window: DataWindow, userId: number): Promise<QuotaDataView[]> {
    return this.read(window, { column: 'user_id', value: userId });
  }

  private async read(window: DataWindow, owner: Owner): Promise<QuotaDataView[]> {
    const end = window.end || nowSeconds();
    const start = window.start ?? end - DEFAULT_SPAN;
    if (start > end) throw new AppError('data.invalid_window');
    if (end - start > MAX_SPAN) throw new AppError('data.window_too_long');
    const granularity = window.granularity ?? 'hour';
    if (granularity === 'hour' && end - start > MAX_HOURLY_WINDOW_DAYS * DAY) throw new AppError('data.hourly_window_too_long', { days: MAX_HOURLY_WINDOW_DAYS });
    const read = (manager: EntityManager) => (granularity === 'hour' ? this.sum(manager, HOURLY, owner, 'hour', start - (start % HOUR), end) : this.byDays(manager, owner, granularity, start, end));
    if (sqlDialect(this.quotaData.manager) !== 'postgres') return read(this.quotaData.manager);
    return this.quotaData.manager.transaction(async (manager) => {
      await manager.query(`SET LOCAL work_mem = '${POSTGRES_GROUPING_MEMORY}'`);
      return read(manager);
    });
  }

  /**
   * By day or week: the days wholly inside the window from the daily buckets, the hours of a
   * day the window cuts (at either end) from the hourly ones, added up per bucket and model.
   */
  private async byDays(manager: EntityManager, owner: Owner, granularity: Granularity, start: number, end: number): Promise<QuotaDataView[]> {
    const firstHour = start - (start % HOUR);
    // Day D is whole when its first hour is at or after firstHour and its last hour at or before end.
    const wholeFrom = Math.ceil(firstHour / DAY) * DAY;
    const wholeTo = Math.floor((end + HOUR) / DAY) * DAY;
    if (wholeFrom >= wholeTo) return this.sum(manager, HOURLY, owner, granularity, firstHour, end);
    const parts = [await this.sum(manager, DAILY, owner, granularity, wholeFrom, wholeTo - 1)];
    if (firstHour < wholeFrom) parts.push(await this.sum(manager, HOURLY, owner, granularity, firstHour, wholeFrom - 1));
    if (wholeTo <= end) parts.push(await this.sum(manager, HOURLY, owner, granularity, wholeTo, end));
    return parts.length === 1 ? parts[0] : mergeBuckets(parts.flat());
  }

  /** One rollup's buckets starting from `from` through `to` (inclusive), summed per bucket of the granularity and model. */
  private async sum(manager: EntityManager, rollup: Rollup, owner: Owner, granularity: Granularity, from: number, to: number): Promise<QuotaDataView[]> {
    const bucket = BUCKET_SQL[granularity];
    const query = manager.createQueryBuilder(rollup.entity, 'q');
    // MariaDB would take the unique bucket key on user_id alone and read every row behind it
    // (0.8 s for a month of everyone's buckets); the covering index holds the sums (MySQL only, SQLite picks it).
    if (owner.column === 'user_id') query.useIndex(rollup.ownerWindowIndex);
    // One owner's buckets are unique per bucket and model: at the rollup's own granularity there is nothing to sum.
    const oneRowPerBucket = owner.column === 'user_id' && (rollup === HOURLY ? granularity === 'hour' : granularity === 'day');
    const total = (column: string) => (oneRowPerBucket ? `q.${column}` : `SUM(q.${column})`);
    const sample = (column: string) => (oneRowPerBucket ? `q.${column}` : `MIN(q.${column})`);
    query
      .select(oneRowPerBucket ? 'q.created_at' : bucket, 'created_at')
      .addSelect('q.model_name', 'model_name')
      .addSelect(sample('user_id'), 'user_id')
      .addSelect(sample('username'), 'username')
      .addSelect(total('token_used'), 'token_used')
      .addSelect(total('count'), 'count')
      .addSelect(total('quota'), 'quota')
      .where(`q.${owner.column} = :owner`, { owner: owner.value })
      .andWhere('q.created_at >= :from AND q.created_at <= :to', { from, to });
    if (!oneRowPerBucket) query.groupBy(bucket).addGroupBy('q.model_name');
    const rows = await query
      .orderBy('created_at', 'ASC')
      .addOrderBy('model_name', 'ASC')
      .getRawMany<Record<string, string | number | null>>();
    return rows.map((row) => ({
      user_id: Number(row.user_id ?? 0),
      username: String(row.username ?? ''),
      model_name: String(row.model_name),
      created_at: Number(row.created_at),
      token_used: Number(row.token_used),
      count: Number(row.count),
      quota: Number(row.quota),
    }));
  }
}

/** Rows of the same bucket and model added up (the owner fields as SQL's MIN takes them), by bucket and model. */
function mergeBuckets(rows: QuotaDataView[]): QuotaDataView[] {
  const merged = new Map<string, QuotaDataView>();
  for (const row of rows) {
    const key = `${row.created_at}\u0000${row.model_name}`;
    const sums = merged.get(key);
    if (!sums) {
      merged.set(key, { ...row });
      continue;
    }
    sums.user_id = Math.min(sums.user_id, row.user_id);
    if (row.username < sums.username) sums.username = row.username;
    sums.token_used += row.token_used;
    sums.count += row.count;
    sums.quota += row.quota;
  }
  return [...merged.values()].sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0));
}
