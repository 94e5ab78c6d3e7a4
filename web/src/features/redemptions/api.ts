import type { RedemptionView as Redemption } from '@shared/redemptions/redemption.wire';
import { api, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { Redemption };

export const REDEMPTION_UNUSED = 1;
export const REDEMPTION_DISABLED = 2;
export const REDEMPTION_USED = 3;
/** The spec's defaults for a new code. */
export const DEFAULT_REDEMPTION_QUOTA = 100000;
export const MAX_REDEMPTIONS_PER_BATCH = 100;

export const redemptionsApi = {
  list: (page: number, pageSize: number) => api.get<Page<Redemption>>('/api/redemption/', { query: { p: page, page_size: pageSize } }),
  search: (filters: { keyword: string }, page: number, pageSize: number) =>
    api.get<Page<Redemption>>('/api/redemption/search', { query: { keyword: filters.keyword, p: page, page_size: pageSize } }),
  get: (id: number) => api.get<Redemption>(`/api/redemption/${id}`),
  /** With plan_id the codes grant that plan instead of quota. */
  create: (body: { name: string; quota: number; count: number; plan_id?: number }) => api.post<string[]>('/api/redemption/', body),
  update: (body: { id: number; name: string; quota: number }) => api.put<Redemption>('/api/redemption/', body),
  setStatus: (id: number, status: number) => api.put<Redemption>('/api/redemption/', { id, status }, { query: { status_only: true } }),
  remove: (id: number) => api.delete<null>(`/api/redemption/${id}/`),
};
