import { api } from '../../api/client';
import type { SessionUser } from '../../lib/session';

export interface LoginUser extends SessionUser {
  /** Set when the root account signed in with a well-known default password. */
  require_password_change?: boolean;
}

/** The first step's answer for an account with a second factor: ask for its code next. */
export interface SecondFactorNeeded {
  require_2fa: true;
}

/** What a sign-in call answers: the user, or a request for the second factor. */
export type SignInAnswer = LoginUser | SecondFactorNeeded;

export function needsSecondFactor(answer: SignInAnswer | null): answer is SecondFactorNeeded {
  return answer !== null && 'require_2fa' in answer && answer.require_2fa === true;
}

export interface RegisterPayload {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
  aff_code: string;
}

export const authApi = {
  login: (body: { username: string; password: string }, turnstile: string) =>
    api.post<SignInAnswer>('/api/user/login', body, { query: { turnstile } }),
  loginSecondFactor: (code: string) => api.post<LoginUser>('/api/user/login/2fa', { code }),
  register: (body: RegisterPayload, turnstile: string) => api.post<null>('/api/user/register', body, { query: { turnstile } }),
  sendVerificationCode: (email: string, turnstile: string) => api.get<null>('/api/verification', { query: { email, turnstile } }),
  oauthState: (aff: string | null) => api.get<string>('/api/oauth/state', { query: { aff: aff ?? undefined } }),
  /** Hands the provider's answer (code, state and, from OpenID providers, iss) to the server. */
  oauthCallback: (provider: string, answer: { code: string; state: string; iss?: string }) =>
    api.get<SignInAnswer | null>(`/api/oauth/${provider}`, { query: answer }),
  wechatLogin: (code: string) => api.get<SignInAnswer>('/api/oauth/wechat', { query: { code } }),
  telegramLogin: (fields: Record<string, string>) => api.get<SignInAnswer>('/api/oauth/telegram/login', { query: fields }),
  /** The user of the session SAML's ACS just started. */
  samlSession: () => api.get<LoginUser>('/api/saml/session'),
};

/** SAML sign-in is a full-page trip: the server sends the browser on to the IdP with its AuthnRequest. */
export function samlLoginUrl(aff: string | null): string {
  return aff ? `/api/saml/login?aff=${encodeURIComponent(aff)}` : '/api/saml/login';
}

export const resetApi = {
  requestReset: (email: string, turnstile: string) => api.get<null>('/api/reset_password', { query: { email, turnstile } }),
  confirmReset: (email: string, token: string) => api.post<string>('/api/user/reset', { email, token }),
};
