import type { RouteAccessTable } from './types';

/** SAML sign-in: the IdP's and the browser's legs are public; the settings check is root's. */
export const samlRoutes: RouteAccessTable = {
  'GET /api/saml/metadata': 'public',
  'GET /api/saml/login': 'public',
  'POST /api/saml/acs': 'public',
  'GET /api/saml/session': 'public',
  'GET /api/saml/settings': 'root',
};
