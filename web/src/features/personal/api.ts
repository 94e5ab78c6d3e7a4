import type { GroupChoice, UserSetting, UserView as SelfUser } from '@shared/users/user.wire';
import { api } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { SelfUser, UserSetting };

export type GroupRatios = Record<string, GroupChoice>;

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
  bindEmail: (email: string, code: string) => api.get<null>('/api/oauth/email/bind', { query: { email, code } }),
  bindWeChat: (code: string) => api.get<null>('/api/oauth/wechat/bind', { query: { code } }),
  bindTelegram: (fields: Record<string, string>) => api.get<null>('/api/oauth/telegram/bind', { query: fields }),
};
