import type { RouteAccessTable } from './types';

/** Redemption codes and the wallet. */
export const moneyRoutes: RouteAccessTable = {
  'GET /api/redemption': 'admin',
  'GET /api/redemption/search': 'admin',
  'POST /api/redemption': 'admin',
  'PUT /api/redemption': 'admin',
  'GET /api/redemption/:id': 'admin',
  'DELETE /api/redemption/:id': 'admin',
  'POST /api/user/topup': 'user',
};
