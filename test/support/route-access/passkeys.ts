import type { RouteAccessTable } from './types';

/** Passkeys: the personal page's list, and sign-in with a passkey alone or as the second step. */
export const passkeyRoutes: RouteAccessTable = {
  'GET /api/user/passkeys': 'user',
  'POST /api/user/passkeys/registration_options': 'user',
  'POST /api/user/passkeys': 'user',
  'PUT /api/user/passkeys/:id': 'user',
  'DELETE /api/user/passkeys/:id': 'user',
  'POST /api/user/login/passkey/options': 'public',
  'POST /api/user/login/passkey': 'public',
  'GET /api/user/login/2fa/passkey': 'public',
  'POST /api/user/login/2fa/passkey/options': 'public',
  'POST /api/user/login/2fa/passkey': 'public',
};
