import type { RouteAccessTable } from './types';

/** Two-factor sign-in and the session list. */
export const identityRoutes: RouteAccessTable = {
  'POST /api/user/login/2fa': 'public',
  'GET /api/user/2fa/status': 'user',
  'POST /api/user/2fa/setup': 'user',
  'POST /api/user/2fa/enable': 'user',
  'POST /api/user/2fa/disable': 'user',
  'POST /api/user/2fa/recovery_codes': 'user',
  'POST /api/user/2fa/reset': 'root',
  'GET /api/user/sessions': 'user',
  'DELETE /api/user/sessions': 'user',
  'DELETE /api/user/sessions/:id': 'user',
};
