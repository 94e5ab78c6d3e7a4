import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Access, RouteAccessTable } from './support/route-access/types';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { mappedRoutes } from './support/mapped-routes';
import { startTestApp, TestApp } from './support/test-app';

/** Every route table under support/route-access/, merged. */
function loadAccessTables(): RouteAccessTable {
  const folder = path.join(__dirname, 'support', 'route-access');
  const merged: RouteAccessTable = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && name !== 'types.ts')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(path.join(folder, file)) as Record<string, RouteAccessTable>;
    for (const table of Object.values(module)) Object.assign(merged, table);
  }
  return merged;
}

const RANK: Record<Access, number> = { public: 0, user: 1, admin: 2, root: 3 };

describe('authorization matrix', () => {
  let app: TestApp;
  let callers: Record<Exclude<Access, 'public'>, Session>;
  const table = loadAccessTables();

  beforeAll(async () => {
    app = await startTestApp();
    const root = await setupRoot(app);
    const admin = await createAdmin(app, root, 'admin1');
    const user = await registerUser(app, 'user1');
    callers = { root, admin, user };
  });
  afterAll(() => app.stop());

  it('has an entry for every route the app serves, and no stale entries', () => {
    const routes = mappedRoutes(app);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !(route in table))).toEqual([]);
    expect(Object.keys(table).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('answers each caller as the table says', async () => {
    const failures: string[] = [];
    // Routes that end the caller's session or account are left for last and not called for real callers.
    const destructive = new Set(['GET /api/user/logout', 'DELETE /api/user/self', 'GET /api/user/token']);
    // Payment providers' callbacks answer in the provider's own wire format (Epay wants the bare word `success`).
    const providerWire = new Set(['GET /api/user/epay/notify', 'POST /api/user/epay/notify', 'POST /api/user/stripe/webhook']);
    // The OpenAPI document and the Swagger UI page are read by tools and browsers as they are, not enveloped;
    // SAML's SP metadata is XML for the IdP, and its login is a browser navigation answered with a redirect.
    const notEnveloped = new Set(['GET /api/openapi.json', 'GET /api/docs', 'GET /api/saml/metadata', 'GET /api/saml/login']);
    for (const route of mappedRoutes(app)) {
      const access = table[route];
      const [method, routePath] = route.split(' ');
      const url = routePath.replace(/:(\w+)/g, '999999');
      const send = (session?: Session) => {
        const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
        const test = app.http[verb](url).set('Accept-Language', 'en');
        if (session) test.set('Cookie', session.cookie).set('New-Api-User', String(session.id));
        return method === 'GET' || method === 'DELETE' ? test : test.send({});
      };
      const anonymous = await send();
      if (access !== 'public' && anonymous.status !== 401) failures.push(`${route} anonymous → ${anonymous.status}, expected 401`);
      if (anonymous.status >= 500) failures.push(`${route} anonymous → ${anonymous.status}`);
      if (destructive.has(route)) continue;
      for (const [role, session] of Object.entries(callers) as [Exclude<Access, 'public'>, Session][]) {
        const response = await send(session);
        const allowed = RANK[role] >= RANK[access];
        if (!allowed && response.status !== 403) failures.push(`${route} as ${role} → ${response.status}, expected 403`);
        if (allowed && (response.status === 401 || response.status === 403)) failures.push(`${route} as ${role} → ${response.status}, expected access`);
        if (response.status >= 500) failures.push(`${route} as ${role} → ${response.status}`);
        if (typeof response.body?.success !== 'boolean' && !providerWire.has(route) && !notEnveloped.has(route)) failures.push(`${route} as ${role}: no envelope`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers a method a route does not serve with a clear error, never a 500', async () => {
    const routes = mappedRoutes(app);
    const served = new Map<string, Set<string>>();
    for (const route of routes) {
      const [method, routePath] = route.split(' ');
      served.set(routePath, (served.get(routePath) ?? new Set()).add(method));
    }
    const failures: string[] = [];
    for (const [routePath, methods] of served) {
      const url = routePath.replace(/:(\w+)/g, '999999');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((candidate) => !methods.has(candidate))) {
        const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const response = await app.http[verb](url).set('Cookie', callers.root.cookie).set('New-Api-User', String(callers.root.id));
        if (response.status >= 500 || response.body?.success !== false) failures.push(`${method} ${routePath} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('requires New-Api-User to match the signed-in user', async () => {
    const { user, admin } = callers;
    const missing = await app.http.get('/api/user/self').set('Cookie', user.cookie);
    expect(missing.status).toBe(401);
    const mismatching = await app.http.get('/api/user/self').set('Cookie', user.cookie).set('New-Api-User', String(admin.id));
    expect(mismatching.status).toBe(401);
    expect(mismatching.body.success).toBe(false);
  });
});
