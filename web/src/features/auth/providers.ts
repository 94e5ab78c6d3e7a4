import { StorageKey } from '../../lib/storage';
import type { SystemStatus } from '../status/types';
import { authApi } from './api';

/** Providers that send the browser away and back to /oauth/{provider} with a code and our state. */
export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';

function authorizationUrl(provider: RedirectProvider, status: Partial<SystemStatus>, state: string): string {
  const encodedState = encodeURIComponent(state);
  switch (provider) {
    case 'github':
      return `https://github.com/login/oauth/authorize?client_id=${encodeURIComponent(status.github_client_id ?? '')}&state=${encodedState}&scope=user:email`;
    case 'linuxdo':
      return `https://connect.linux.do/oauth2/authorize?response_type=code&client_id=${encodeURIComponent(status.linuxdo_client_id ?? '')}&state=${encodedState}`;
    case 'oidc':
      // The server adds PKCE and a nonce for this state, then sends the browser on to the provider.
      return `/api/oauth/oidc/authorize?state=${encodedState}`;
  }
}

/** Signs in, or binds when already signed in: the callback page finishes either way. */
export async function redirectToProvider(provider: RedirectProvider, status: Partial<SystemStatus>): Promise<void> {
  const result = await authApi.oauthState(localStorage.getItem(StorageKey.aff));
  if (result.ok) window.location.assign(authorizationUrl(provider, status, result.data));
}
