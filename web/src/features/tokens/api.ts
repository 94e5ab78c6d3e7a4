import { api, type Page } from '../../api/client';

export const TOKEN_ENABLED = 1;
export const TOKEN_DISABLED = 2;
export const TOKEN_EXPIRED = 3;
export const TOKEN_EXHAUSTED = 4;
export const NEVER_EXPIRES = -1;

/** A token as its owner sees it; `key` already carries the sk- prefix. */
export interface Token {
  id: number;
  name: string;
  key: string;
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  /** Unix seconds, or -1 for never. */
  expired_time: number;
  model_limits_enabled: boolean;
  /** Comma-separated model names. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  group: string;
  created_time: number;
  accessed_time: number;
}

export interface TokenWrite {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}

export type GroupChoices = Record<string, { desc: string; ratio: number }>;

export const tokensApi = {
  list: (page: number, size: number) => api.get<Page<Token>>('/api/token/', { query: { p: page, size } }),
  search: (keyword: string, token: string, page: number, size: number) =>
    api.get<Page<Token>>('/api/token/search', { query: { keyword, token, p: page, size } }),
  get: (id: number) => api.get<Token>(`/api/token/${id}`),
  create: (body: TokenWrite & { count: number }) => api.post<Token[]>('/api/token/', body),
  update: (body: TokenWrite & { id: number }) => api.put<Token>('/api/token/', body),
  setStatus: (id: number, status: number) => api.put<Token>('/api/token/', { id, status }, { query: { status_only: true } }),
  remove: (id: number) => api.delete<null>(`/api/token/${id}/`),
  removeMany: (ids: number[]) => api.post<number>('/api/token/batch', { ids }),
  groups: () => api.get<GroupChoices>('/api/user/self/groups'),
  models: () => api.get<string[]>('/api/user/models'),
};

/** What the table shows: expiry and exhaustion count even before the server has flipped the status. */
export type TokenState = 'enabled' | 'limited' | 'disabled' | 'expired' | 'exhausted';

export function tokenState(token: Token, nowSeconds = Date.now() / 1000): TokenState {
  if (token.status === TOKEN_EXPIRED || (token.expired_time !== NEVER_EXPIRES && token.expired_time <= nowSeconds)) return 'expired';
  if (token.status === TOKEN_EXHAUSTED || (!token.unlimited_quota && token.remain_quota <= 0)) return 'exhausted';
  if (token.status === TOKEN_DISABLED) return 'disabled';
  return token.model_limits_enabled ? 'limited' : 'enabled';
}

/** Expired and exhausted tokens cannot be enabled until their expiry or quota is fixed. */
export function canEnable(token: Token): boolean {
  const state = tokenState(token);
  return state !== 'expired' && state !== 'exhausted';
}
