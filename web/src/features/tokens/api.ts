import type { TokenView as Token } from '@shared/tokens/token.wire';
import type { GroupChoice } from '@shared/users/user.wire';
import { api, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { Token };

export const TOKEN_ENABLED = 1;
export const TOKEN_DISABLED = 2;
export const TOKEN_EXPIRED = 3;
export const TOKEN_EXHAUSTED = 4;
export const NEVER_EXPIRES = -1;

/** The writable fields of a token, as a create or edit sends them. */
export type TokenWrite = Pick<Token, 'name' | 'remain_quota' | 'unlimited_quota' | 'expired_time' | 'model_limits_enabled' | 'model_limits' | 'allow_ips' | 'group' | 'budget_windows' | 'rpm_limit' | 'tpm_limit' | 'model_fallbacks' | 'response_cache' | 'response_cache_nondeterministic'>;

export type GroupChoices = Record<string, GroupChoice>;

export const tokensApi = {
  list: (page: number, size: number) => api.get<Page<Token>>('/api/token/', { query: { p: page, size } }),
  search: (keyword: string, token: string, page: number, size: number) =>
    api.get<Page<Token>>('/api/token/search', { query: { keyword, token, p: page, size } }),
  get: (id: number) => api.get<Token>(`/api/token/${id}`),
  create: (body: TokenWrite & { count: number }) => api.post<Token[]>('/api/token/', body),
  update: (body: Omit<TokenWrite, 'remain_quota'> & { id: number; remain_quota?: number; original_remain_quota?: number }) => api.put<Token>('/api/token/', body),
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
