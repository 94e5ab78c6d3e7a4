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
