import { api, type Page } from '../../api/client';

/** A user row as the admin list returns it. */
export interface AdminUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  email?: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_count?: number;
  inviter_id?: number;
  remark?: string;
  github_id?: string;
  oidc_id?: string;
  wechat_id?: string;
  telegram_id?: string;
  linux_do_id?: string;
  DeletedAt: string | null;
}

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete';

export interface UserUpdate {
  id: number;
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number;
  remark: string;
}

export const usersApi = {
  list: (page: number, pageSize: number) => api.get<Page<AdminUser>>('/api/user/', { query: { p: page, page_size: pageSize } }),
  search: (keyword: string, group: string, page: number, pageSize: number) =>
    api.get<Page<AdminUser>>('/api/user/search', { query: { keyword, group, p: page, page_size: pageSize } }),
  get: (id: number) => api.get<AdminUser>(`/api/user/${id}`),
  create: (body: { username: string; display_name: string; password: string }) => api.post<null>('/api/user/', body),
  update: (body: UserUpdate) => api.put<null>('/api/user/', body),
  manage: (id: number, action: ManageAction) => api.post<{ status: number; role: number }>('/api/user/manage', { id, action }),
  groups: () => api.get<string[]>('/api/group/'),
};
