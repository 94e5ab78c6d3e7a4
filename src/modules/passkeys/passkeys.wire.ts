import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';

/** One of the account's passkeys as the personal page lists it (GET /api/user/passkeys). */
export interface PasskeyView {
  id: number;
  name: string;
  created_time: number;
  /** 0 until the passkey first signs in. */
  last_used_time: number;
  /** A synced passkey (password manager, iCloud Keychain) rather than one bound to a single device. */
  backed_up: boolean;
}

/** POST /api/user/passkeys/registration_options: handed to the browser's `navigator.credentials.create()`. */
export type PasskeyRegistrationOptionsView = PublicKeyCredentialCreationOptionsJSON;

/** POST /api/user/login/passkey/options and /api/user/login/2fa/passkey/options: handed to `navigator.credentials.get()`. */
export type PasskeySignInOptionsView = PublicKeyCredentialRequestOptionsJSON;

/** GET /api/user/login/2fa/passkey: whether the account waiting for its second factor can answer with a passkey. */
export interface PasskeySecondFactorView {
  available: boolean;
}
