import { api } from '../../api/client';

/** The signed-in user's own record from GET /api/user/self. */
export interface SelfUser {
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
  aff_code?: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  /** JSON text of {@link UserSetting}. */
  setting?: string;
}

export interface UserSetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

export type GroupRatios = Record<string, { desc: string; ratio: number }>;

export const personalApi = {
  self: () => api.get<SelfUser>('/api/user/self'),
  changePassword: (original_password: string, password: string) => api.put<null>('/api/user/self', { original_password, password }),
  deleteSelf: () => api.delete<null>('/api/user/self'),
  updateSetting: (setting: UserSetting) => api.put<null>('/api/user/setting', setting),
  resetAccessToken: () => api.get<string>('/api/user/token'),
  affCode: () => api.get<string>('/api/user/aff'),
  transferAffQuota: (quota: number) => api.post<null>('/api/user/aff_transfer', { quota }),
  models: () => api.get<string[]>('/api/user/models'),
  groups: () => api.get<GroupRatios>('/api/user/self/groups'),
};
