import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { TFunction } from 'i18next';
import { toast } from '../../lib/toast';

/** Why the browser's passkey prompt failed, as a message key; closing the prompt is not an error. */
function failureKey(error: unknown): string | null {
  const code = error instanceof WebAuthnError ? error.code : undefined;
  const name = error instanceof Error ? error.name : '';
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
export function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON, t: TFunction): Promise<RegistrationResponseJSON | null> {
  return startRegistration({ optionsJSON }).catch((error: unknown) => reportFailure(error, t));
}

/** The browser's "use a passkey" prompt; null when it was closed or failed (a toast says which). */
export function presentPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON, t: TFunction): Promise<AuthenticationResponseJSON | null> {
  return startAuthentication({ optionsJSON }).catch((error: unknown) => reportFailure(error, t));
}
