import type { UserView as AdminUser } from '@shared/users/user.wire';
import type { SubscriptionView as Subscription } from '@shared/plans/plan.wire';
import { api, type Page } from '../../api/client';
import type { BudgetWrite } from '../budget/budget';

// Declared once, beside the server code that builds the answer.
export type { AdminUser, Subscription };

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete';

export interface UserUpdate extends BudgetWrite {
  id: number;
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number;
  /** The balance the form loaded: the server applies quota − original_quota as a delta. */
  original_quota: number;
  remark: string;
}

export const usersApi = {
  list: (page: number, pageSize: number) => api.get<Page<AdminUser>>('/api/user/', { query: { p: page, page_size: pageSize } }),
  search: (keyword: string, group: string, page: number, pageSize: number) =>
    api.get<Page<AdminUser>>('/api/user/search', { query: { keyword, group, p: page, page_size: pageSize } }),
  get: (id: number) => api.get<AdminUser>(`/api/user/${id}`),
  /** The user's subscriptions, as their own wallet page shows them. */
  subscriptions: (id: number) => api.get<Subscription[]>(`/api/user/${id}/subscriptions`),
  create: (body: { username: string; display_name: string; password: string }) => api.post<null>('/api/user/', body),
  update: (body: UserUpdate) => api.put<null>('/api/user/', body),
  manage: (id: number, action: ManageAction) => api.post<{ status: number; role: number }>('/api/user/manage', { id, action }),
  groups: () => api.get<string[]>('/api/group/'),
};
