import { readFileSync, writeFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createAdmin, registerUser, setupRoot, type Session } from './support/accounts';
import { mappedRoutes } from './support/mapped-routes';
import { startTestApp, TestApp } from './support/test-app';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
/** The Swagger UI page and its files: served beside the document, not part of the API it describes. */
const UNDOCUMENTED_ON_PURPOSE = new Set(['GET /api/docs', 'GET /api/docs/{asset}']);

/** Every /api route Express serves, with `:param` written `{param}` as OpenAPI does. */
function apiRoutes(app: TestApp): string[] {
  return mappedRoutes(app)
    .filter((route) => route.split(' ')[1].startsWith('/api'))
    .map((route) => route.replace(/:(\w+)/g, '{$1}'));
}

function documentedRoutes(document: OpenAPIObject): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) if (item[method]) routes.add(`${method.toUpperCase()} ${path.replace(/\/$/, '')}`);
  }
  return routes;
}

describe('OpenAPI document', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let user: Session;
  let document: OpenAPIObject;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'docsadmin');
    user = await registerUser(app, 'docsuser');
  });
  afterAll(async () => {
    await app.stop();
  });

  it('is served to administrators only', async () => {
    expect((await app.http.get('/api/openapi.json')).status).toBe(401);
    expect((await user.get('/api/openapi.json')).status).toBe(403);
    // The cookie alone is not enough for the document: it needs New-Api-User like every admin route.
    expect((await app.http.get('/api/openapi.json').set('Cookie', admin.cookie)).status).toBe(401);
    const response = await admin.get('/api/openapi.json');
    expect(response.status).toBe(200);
    document = response.body as OpenAPIObject;
    if (process.env.OPENAPI_DUMP) writeFileSync(process.env.OPENAPI_DUMP, JSON.stringify(document, null, 2));
    expect(document.openapi).toMatch(/^3\./);
  });

  it('lists every /api route Nest serves', async () => {
    const declared = apiRoutes(app);
    expect(declared.length).toBeGreaterThan(80);
    const documented = documentedRoutes(document);
    const missing = declared.filter((route) => !documented.has(route) && !UNDOCUMENTED_ON_PURPOSE.has(route));
    expect(missing).toEqual([]);
    for (const route of UNDOCUMENTED_ON_PURPOSE) expect(declared).toContain(route);
  });

  it('describes bodies and query parameters from the DTOs, answers in the envelope, and who may call', () => {
    const createChannel = document.paths['/api/channel']?.post;
    const body = createChannel?.requestBody as { content: Record<string, { schema: { $ref: string } }> };
    const schemaName = body.content['application/json'].schema.$ref.split('/').pop()!;
    const schema = document.components!.schemas![schemaName] as { properties: Record<string, { type?: string; maxLength?: number }>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['name', 'key', 'models', 'type', 'group', 'base_url']));
    expect(schema.properties.type.type).toBe('integer');
    expect(schema.properties.group.maxLength).toBe(255);
    // `data` comes from the handler's declared answer (the *.wire.ts types), inside the envelope.
    expect(createChannel?.responses['200']).toEqual(
      expect.objectContaining({
        content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ChannelView' } } } }] } } },
      }),
    );
    const tokenPage = document.components!.schemas!.Page_TokenView as { properties: Record<string, unknown> };
    expect(Object.keys(tokenPage.properties)).toEqual(expect.arrayContaining(['page', 'page_size', 'total', 'items']));
    const tokenView = document.components!.schemas!.TokenView as { properties: Record<string, unknown> };
    expect(Object.keys(tokenView.properties)).toEqual(expect.arrayContaining(['id', 'name', 'remain_quota', 'status']));
    expect(createChannel?.responses['201']).toBeUndefined();
    expect((createChannel as { 'x-min-role'?: number })['x-min-role']).toBe(10);

    const audit = document.paths['/api/audit']?.get;
    const auditParameters = (audit?.parameters ?? []) as { name: string; in: string; schema?: { enum?: string[] } }[];
    expect(auditParameters.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['actor', 'entity', 'start_timestamp', 'end_timestamp', 'p', 'page_size']));
    expect(auditParameters.find((parameter) => parameter.name === 'entity')?.schema?.enum).toContain('channel');
    expect((audit as { 'x-min-role'?: number })['x-min-role']).toBe(100);

    const channelList = (document.paths['/api/channel']?.get?.parameters ?? []) as { name: string; in: string }[];
    expect(channelList.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['p', 'page_size', 'keyword']));

    const tokenUpdate = (document.paths['/api/token']?.put?.parameters ?? []) as { name: string; in: string }[];
    expect(tokenUpdate).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'status_only', in: 'query' })]));
    const tokenSearch = (document.paths['/api/token/search']?.get?.parameters ?? []) as { name: string }[];
    expect(tokenSearch.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['p', 'size', 'keyword', 'token']));

    const login = document.paths['/api/user/login']?.post;
    expect(login?.security).toEqual([]);
    expect(document.paths['/api/user/self']?.get?.security?.length).toBeGreaterThan(0);
    expect(document.paths['/api/channel/{id}']?.get?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]));

    for (const relayPath of ['/v1/chat/completions', '/v1/messages', '/v1/embeddings', '/v1/rerank']) expect(document.paths[relayPath]?.post).toBeDefined();
    expect(document.paths['/v1/models']?.get).toBeDefined();
  });

  it('has response schemas that match the code (regenerate with node scripts/openapi-response-schemas.js)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const generator = require('../scripts/openapi-response-schemas.js') as { generateResponseSchemas(): unknown; OUTPUT: string };
    expect(generator.generateResponseSchemas()).toEqual(JSON.parse(readFileSync(generator.OUTPUT, 'utf8')));
  }, 240_000);

  it('carries no secret-looking example', () => {
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/sk-[A-Za-z0-9]{8,}/);
    expect(text).not.toMatch(/Bearer\s+[A-Za-z0-9._-]{8,}/);
    expect(text).not.toMatch(/[0-9a-f]{32,}/i);
    expect(text).not.toContain(app.config.sessionSecret);
    // No example or default at all on a field named like a secret, and no example value shaped like one.
    const exampleStrings: string[] = [];
    JSON.parse(text, function (this: Record<string, unknown>, key: string, value: unknown) {
      if (/password|secret|^key$|access_token|webhook_secret/i.test(key) && value && typeof value === 'object') {
        expect(value).not.toHaveProperty('example');
        expect(value).not.toHaveProperty('default');
      }
      if ((key === 'example' || key === 'examples' || key === 'default') && value !== undefined) {
        JSON.stringify(value, (_inner, leaf: unknown) => (typeof leaf === 'string' && exampleStrings.push(leaf), leaf));
      }
      return value;
    });
    for (const example of exampleStrings) expect(example).not.toMatch(/^(sk-|Bearer |ghp_|xox)|[A-Za-z0-9+/_-]{32,}/);
  });

  it('serves Swagger UI from swagger-ui-dist to an administrator opening it in the browser', async () => {
    expect((await app.http.get('/api/docs')).status).toBe(401);
    // A browser navigation sends the cookie but cannot send New-Api-User.
    expect((await app.http.get('/api/docs').set('Cookie', user.cookie)).status).toBe(403);
    expect((await app.http.get('/api/docs/swagger-ui-bundle.js').set('Cookie', user.cookie)).status).toBe(403);
    const page = await app.http.get('/api/docs').set('Cookie', admin.cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('/api/openapi.json');
    expect(page.text).toContain(`request.headers['New-Api-User'] = '${admin.id}'`);
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await app.http.get('/api/docs/swagger-ui-bundle.js').set('Cookie', admin.cookie);
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect((await app.http.get('/api/docs/swagger-ui.css').set('Cookie', admin.cookie)).status).toBe(200);
    expect((await app.http.get('/api/docs/package.json').set('Cookie', admin.cookie)).status).toBe(404);
    expect((await app.http.get('/api/docs/..%2Fpackage.json').set('Cookie', admin.cookie)).status).toBe(404);
  });
});
