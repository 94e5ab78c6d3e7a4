import { Injectable } from '@nestjs/common';
import { EntityManager, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { nowSeconds } from '../../database/columns';
import { sqlDialect } from '../../database/dialect';
import { LogDatabase } from '../../database/log-database';
import type { Granularity } from './dto/data-query.dto';
import { QuotaDataEntity } from './entities/quota-data.entity';
import { ALL_USERS } from './usage-aggregator.service';
import type { QuotaDataView } from './data.wire';

export interface DataWindow {
  start?: number;
  end?: number;
  granularity?: Granularity;
}

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

/** (user_id, created_at, model_name, and every summed column): a window of one owner's buckets, read from the index alone. */
const OWNER_WINDOW_INDEX = 'idx_quota_data_owner_window';

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

  private async read(window: DataWindow, owner: { column: 'username' | 'user_id'; value: string | number }): Promise<QuotaDataView[]> {
    const end = window.end || nowSeconds();
    const start = window.start ?? end - DEFAULT_SPAN;
    if (start > end) throw new AppError('data.invalid_window');
    if (end - start > MAX_SPAN) throw new AppError('data.window_too_long');
    if (sqlDialect(this.quotaData.manager) !== 'postgres') return this.readWith(this.quotaData.manager, window, owner, start, end);
    return this.quotaData.manager.transaction(async (manager) => {
      await manager.query(`SET LOCAL work_mem = '${POSTGRES_GROUPING_MEMORY}'`);
      return this.readWith(manager, window, owner, start, end);
    });
  }

  private async readWith(manager: EntityManager, window: DataWindow, owner: { column: 'username' | 'user_id'; value: string | number }, start: number, end: number): Promise<QuotaDataView[]> {
    const bucket = BUCKET_SQL[window.granularity ?? 'hour'];
    const query = manager.createQueryBuilder(QuotaDataEntity, 'q');
    // MariaDB would take the unique bucket key on user_id alone and read every row behind it
    // (0.8 s for a month of everyone's buckets); the covering index holds the sums (MySQL only, SQLite picks it).
    if (owner.column === 'user_id') query.useIndex(OWNER_WINDOW_INDEX);
    // One owner's buckets are unique per hour and model: hour by hour there is nothing to sum.
    const oneRowPerBucket = owner.column === 'user_id' && bucket === BUCKET_SQL.hour;
    const total = (column: string) => (oneRowPerBucket ? `q.${column}` : `SUM(q.${column})`);
    const sample = (column: string) => (oneRowPerBucket ? `q.${column}` : `MIN(q.${column})`);
    query
      .select(bucket, 'created_at')
      .addSelect('q.model_name', 'model_name')
      .addSelect(sample('user_id'), 'user_id')
      .addSelect(sample('username'), 'username')
      .addSelect(total('token_used'), 'token_used')
      .addSelect(total('count'), 'count')
      .addSelect(total('quota'), 'quota')
      .where(`q.${owner.column} = :owner`, { owner: owner.value })
      .andWhere('q.created_at >= :start AND q.created_at <= :end', { start: start - (start % 3600), end });
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
