import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { TFunction } from 'i18next';
import { toast } from '../../lib/toast';

// @simplewebauthn/browser is loaded on the first prompt, not with the login page, whose cold load has a tight budget.

/** Whether this browser can use passkeys at all (the check @simplewebauthn/browser makes, without loading it). */
export function browserSupportsPasskeys(): boolean {
  return typeof window.PublicKeyCredential === 'function';
}

/** Why the browser's passkey prompt failed, as a message key; null when the person closed it. */
function failureKey(error: unknown): string | null {
  const name = error instanceof Error ? error.name : '';
  // WebAuthnError (from @simplewebauthn/browser) says why in `code`.
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError' || name === 'AbortError') return null;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'identity:passkeys.errors.alreadyOnDevice';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') return 'identity:passkeys.errors.wrongAddress';
  return 'identity:passkeys.errors.browser';
}

function reportFailure(error: unknown, t: TFunction): null {
  const key = failureKey(error);
  if (key) toast.error(t(key));
  else toast.info(t('identity:passkeys.errors.cancelled'));
  return null;
}

/** The browser's "create a passkey" prompt; null when it was closed or failed (a toast says which). */
export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON, t: TFunction): Promise<RegistrationResponseJSON | null> {
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    return await startRegistration({ optionsJSON });
  } catch (error) {
    return reportFailure(error, t);
  }
}

/** The browser's "use a passkey" prompt; null when it was closed or failed (a toast says which). */
export async function presentPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON, t: TFunction): Promise<AuthenticationResponseJSON | null> {
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    return reportFailure(error, t);
  }
}
