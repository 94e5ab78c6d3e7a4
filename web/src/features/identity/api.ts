import type { SessionView } from '@shared/sessions/sessions.wire';
import type { RecoveryCodesView, TwoFactorSetupView, TwoFactorStatusView } from '@shared/two-factor/two-factor.wire';
import { api } from '../../api/client';

export type { SessionView, TwoFactorStatusView };

export const identityApi = {
  twoFactorStatus: () => api.get<TwoFactorStatusView>('/api/user/2fa/status'),
  beginTwoFactorSetup: () => api.post<TwoFactorSetupView>('/api/user/2fa/setup'),
  enableTwoFactor: (code: string) => api.post<RecoveryCodesView>('/api/user/2fa/enable', { code }),
  disableTwoFactor: (code: string) => api.post<null>('/api/user/2fa/disable', { code }),
  regenerateRecoveryCodes: (code: string) => api.post<RecoveryCodesView>('/api/user/2fa/recovery_codes', { code }),
  resetTwoFactor: (userId: number) => api.post<null>('/api/user/2fa/reset', { user_id: userId }),
  sessions: () => api.get<SessionView[]>('/api/user/sessions'),
  revokeSession: (id: string) => api.delete<null>(`/api/user/sessions/${encodeURIComponent(id)}`),
  revokeOtherSessions: () => api.delete<null>('/api/user/sessions'),
};
