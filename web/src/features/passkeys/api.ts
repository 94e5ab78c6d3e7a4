import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import type { PasskeyRegistrationOptionsView, PasskeySecondFactorView, PasskeySignInOptionsView, PasskeyView } from '@shared/passkeys/passkeys.wire';
import { api } from '../../api/client';
import type { LoginUser } from '../auth/api';

export type { PasskeyView };

export const passkeysApi = {
  list: () => api.get<PasskeyView[]>('/api/user/passkeys'),
  registrationOptions: () => api.post<PasskeyRegistrationOptionsView>('/api/user/passkeys/registration_options'),
  register: (response: RegistrationResponseJSON) => api.post<PasskeyView>('/api/user/passkeys', { response }),
  rename: (id: number, name: string) => api.put<null>(`/api/user/passkeys/${id}`, { name }),
  remove: (id: number) => api.delete<null>(`/api/user/passkeys/${id}`),
  signInOptions: () => api.post<PasskeySignInOptionsView>('/api/user/login/passkey/options'),
  signIn: (response: AuthenticationResponseJSON) => api.post<LoginUser>('/api/user/login/passkey', { response }),
  secondFactorAvailable: () => api.get<PasskeySecondFactorView>('/api/user/login/2fa/passkey'),
  secondFactorOptions: () => api.post<PasskeySignInOptionsView>('/api/user/login/2fa/passkey/options'),
  secondFactor: (response: AuthenticationResponseJSON) => api.post<LoginUser>('/api/user/login/2fa/passkey', { response }),
};
