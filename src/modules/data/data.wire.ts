/** One hour of usage: per user and model (GET /api/data/?username=…, /api/data/self/), or per model over all users (GET /api/data/). */
export interface QuotaDataView {
  user_id: number;
  username: string;
  model_name: string;
  /** Start of the hour (unix seconds). */
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

/**
 * The longest window GET /api/data/ answers hour by hour. Longer windows go by day or week: a
 * month by hour is 720 buckets per model (tens of thousands of rows, megabytes of JSON for a
 * busy user), more than a chart can show and more than one dashboard call should cost.
 */
export const MAX_HOURLY_WINDOW_DAYS = 7;
