import { useState } from 'react';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../api/client';
import type { LoginUser } from '../auth/api';
import { presentPasskey } from './ceremony';

/** The two calls of a passkey sign-in: the server's challenge, then the browser's signed answer. */
export interface PasskeySignInCalls {
  options: () => Promise<ApiResult<PublicKeyCredentialRequestOptionsJSON>>;
  submit: (response: AuthenticationResponseJSON) => Promise<ApiResult<LoginUser>>;
}

/** Runs a passkey sign-in (challenge, browser prompt, answer); `busy` while it is under way. */
export function usePasskeySignIn(calls: PasskeySignInCalls, onSignedIn: (user: LoginUser) => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    try {
      const options = await calls.options();
      if (!options.ok) return;
      const response = await presentPasskey(options.data, t);
      if (!response) return;
      const result = await calls.submit(response);
      if (result.ok) onSignedIn(result.data);
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}
