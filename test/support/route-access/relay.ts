import type { RouteAccessTable } from './types';

/** Channel probes served by the relay module. The relay itself (/v1, /pg) is outside Nest and authenticates with API keys or the session. */
export const relayRoutes: RouteAccessTable = {
  'GET /api/channel/test/:id': 'admin',
  'GET /api/channel/test': 'admin',
  'GET /api/channel/update_balance': 'admin',
  'GET /api/channel/update_balance/:id': 'admin',
  'GET /api/channel/test_upstream/:id': 'admin',
  'GET /api/channel/fetch_models/:id': 'admin',
  'POST /api/channel/fetch_models': 'root',
  'GET /api/channel/:id/keys': 'admin',
  'POST /api/channel/:id/keys/:index/enable': 'admin',
  'POST /api/channel/:id/keys/:index/disable': 'admin',
  'DELETE /api/channel/:id/keys/:index': 'admin',
  'POST /api/channel/:id/keys/:index/test': 'admin',
};
