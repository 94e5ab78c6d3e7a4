import type { RouteAccessTable } from './types';

/** Redemption codes and the wallet. */
export const moneyRoutes: RouteAccessTable = {
  'GET /api/redemption': 'admin',
  'GET /api/redemption/search': 'admin',
  'POST /api/redemption': 'admin',
  'PUT /api/redemption': 'admin',
  'GET /api/redemption/:id': 'admin',
  'DELETE /api/redemption/:id': 'admin',
  'GET /api/plan': 'admin',
  'POST /api/plan': 'admin',
  'PUT /api/plan': 'admin',
  'GET /api/plan/:id': 'admin',
  'DELETE /api/plan/:id': 'admin',
  'GET /api/subscription/plans': 'user',
  'GET /api/subscription/self': 'user',
  'POST /api/subscription/self': 'user',
  'POST /api/user/topup': 'user',
  'POST /api/user/amount': 'user',
  'POST /api/user/pay': 'user',
  'GET /api/user/topup/self': 'user',
  'GET /api/user/epay/notify': 'public',
  'POST /api/user/epay/notify': 'public',
  'POST /api/user/stripe/webhook': 'public',
};
