import type { QuotaDataView } from '@shared/data/data.wire';
export { MAX_HOURLY_WINDOW_DAYS } from '@shared/data/data.wire';
import { api } from '../../api/client';

export type { QuotaDataView };
export type Granularity = 'hour' | 'day' | 'week';
export const GRANULARITIES: Granularity[] = ['hour', 'day', 'week'];

export interface DataQuery {
  start_timestamp: number;
  end_timestamp: number;
  granularity: Granularity;
  /** Admins only: one user's usage; empty for everyone. */
  username: string;
}

export const detailApi = {
  load: (query: DataQuery, admin: boolean) =>
    api.get<QuotaDataView[]>(admin ? '/api/data/' : '/api/data/self/', {
      query: {
        start_timestamp: query.start_timestamp,
        end_timestamp: query.end_timestamp,
        granularity: query.granularity,
        username: admin ? query.username.trim() || undefined : undefined,
      },
    }),
};
