import type { RouteAccessTable } from './types';

/** The SCIM tokens of the settings page (the /scim/v2 protocol itself is off Express, with its own bearer tokens). */
export const scimRoutes: RouteAccessTable = {
  'GET /api/scim/tokens': 'root',
  'POST /api/scim/tokens': 'root',
  'DELETE /api/scim/tokens/:id': 'root',
};
