import { DataSource } from 'typeorm';
import type { AuditLogView } from '../src/modules/audit/audit.wire';
import { login, registerUser, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { relayChat } from './support/relay-call';
import { TestApp, testSql } from './support/test-app';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const MODEL = 'scim-model';

interface ScimAnswer {
  status: number;
  contentType: string | null;
  location: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

describe('SCIM 2.0 provisioning', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let stop: () => Promise<void>;
  let oktaToken = '';
  let entraToken = '';
  /** Every answer and header the gateway gave, searched for the tokens at the end. */
  const answers: string[] = [];
  /** What the process wrote to stdout and stderr meanwhile (the app's log). */
  const written: string[] = [];

  /** An identity provider's SCIM client: bearer token, SCIM media type, JSON bodies. */
  const scimClient =
    (token: () => string) =>
    async (method: string, path: string, body?: unknown): Promise<ScimAnswer> => {
      const response = await fetch(`${app.baseUrl}/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${token()}`, accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': 'application/scim+json; charset=utf-8' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      answers.push(text, JSON.stringify([...response.headers]));
      return { status: response.status, contentType: response.headers.get('content-type'), location: response.headers.get('location'), body: text ? JSON.parse(text) : undefined };
    };
  const okta = scimClient(() => oktaToken);
  const entra = scimClient(() => entraToken);
  const filter = (expression: string) => encodeURIComponent(expression);

  async function auditRows(query = ''): Promise<AuditLogView[]> {
    const response = await root.get(`/api/audit/?page_size=100${query}`);
    answers.push(JSON.stringify(response.body));
    expect(response.body.success).toBe(true);
    return response.body.data.items as AuditLogView[];
  }

  async function chat(apiKey: string) {
    return relayChat(app, apiKey, { model: MODEL });
  }

  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
        written.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof stream.write);
    }
    ({ app, upstream, seed, root, stop } = await startRelayTestbed());
    await seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, engineering: 1 }));
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await seed.setOption('ServerAddress', 'https://gateway.example.test');
    await seed.createChannel({ base_url: upstream.url, models: MODEL, group: 'default,vip,engineering' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await stop();
  });

  it('lets root make a token shown once, list it without the token and revoke it; a call without a live token gets 401 in SCIM shape', async () => {
    const made = await root.post('/api/scim/tokens', { name: 'Okta' });
    expect(made.body).toMatchObject({ success: true, data: { id: expect.any(Number), name: 'Okta', token: expect.stringMatching(/^scim_[A-Za-z0-9]{40}$/) } });
    oktaToken = made.body.data.token;
    const second = await root.post('/api/scim/tokens', { name: 'Entra ID' });
    entraToken = second.body.data.token;
    const doomed = await root.post('/api/scim/tokens', { name: 'to revoke' });
    const doomedToken = doomed.body.data.token as string;

    expect((await root.post('/api/scim/tokens', { name: '' })).body).toMatchObject({ success: false, message: '请填写令牌名称（最多 64 个字符）' });
    const listed = await root.get('/api/scim/tokens');
    answers.push(JSON.stringify(listed.body));
    expect(listed.body.data.map((row: { name: string }) => row.name)).toEqual(['Okta', 'Entra ID', 'to revoke']);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual(['created_time', 'id', 'last_used_time', 'name']);
    const user = await registerUser(app, 'notroot');
    expect((await user.get('/api/scim/tokens')).status).toBe(403);
    expect((await user.post('/api/scim/tokens', { name: 'mine' })).status).toBe(403);

    const withDoomed = scimClient(() => doomedToken);
    expect((await withDoomed('GET', '/ServiceProviderConfig')).status).toBe(200);
    expect((await root.delete(`/api/scim/tokens/${doomed.body.data.id}`)).body).toMatchObject({ success: true });
    const revoked = await withDoomed('GET', '/Users');
    expect(revoked).toMatchObject({ status: 401, contentType: 'application/scim+json; charset=utf-8', body: { schemas: [ERROR], status: '401' } });
    expect((await scimClient(() => '')('GET', '/Users')).status).toBe(401);
    expect((await scimClient(() => `${oktaToken}x`)('GET', '/Users')).status).toBe(401);

    // Only the keyed hash is stored.
    const stored = await app.app.get(DataSource).query(testSql('SELECT token_hash FROM scim_tokens'));
    expect(JSON.stringify(stored)).not.toContain(oktaToken.slice(5));
  });

  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = await okta('GET', '/ServiceProviderConfig');
    expect(config).toMatchObject({ status: 200, contentType: 'application/scim+json; charset=utf-8' });
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 }, authenticationSchemes: [{ type: 'oauthbearertoken' }] });
    const types = await okta('GET', '/ResourceTypes');
    expect(types.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 2 });
    expect(types.body.Resources.map((type: { endpoint: string }) => type.endpoint)).toEqual(['/Users', '/Groups']);
    expect((await okta('GET', '/ResourceTypes/User')).body).toMatchObject({ id: 'User', schema: USER_SCHEMA, meta: { location: 'https://gateway.example.test/scim/v2/ResourceTypes/User' } });
    const userSchema = await okta('GET', `/Schemas/${USER_SCHEMA}`);
    expect(userSchema.body.attributes.map((attribute: { name: string }) => attribute.name)).toEqual(expect.arrayContaining(['userName', 'displayName', 'emails', 'active', 'groups']));
    expect((await okta('GET', '/Schemas')).body.totalResults).toBe(2);
    expect((await okta('GET', '/Schemas/urn:nope')).status).toBe(404);
    expect((await okta('GET', '/Nowhere')).body).toMatchObject({ schemas: [ERROR], status: '404' });
    expect((await okta('DELETE', '/ServiceProviderConfig')).status).toBe(405);
  });

  it("plays Okta's sequence: look up, create, read, update, push a group and its members, deactivate; the deactivated user's API key and console stop", async () => {
    // Okta's documented requests (developer.okta.com, "SCIM 2.0 protocol reference"), in its order.
    const userName = 'test.user@okta.local';
    const lookup = await okta('GET', `/Users?filter=${filter(`userName eq "${userName}"`)}&startIndex=1&count=100`);
    expect(lookup).toMatchObject({ status: 200, body: { schemas: [LIST_RESPONSE], totalResults: 0, Resources: [] } });

    const created = await okta('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName,
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq-okta',
      active: true,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.location).toBe(`https://gateway.example.test/scim/v2/Users/${id}`);
    expect(created.body).toEqual({
      schemas: [USER_SCHEMA],
      id,
      externalId: '00ujl29u0le5T6Aj10h7',
      userName,
      name: { formatted: 'Test User' },
      displayName: 'Test User',
      emails: [{ value: userName, type: 'work', primary: true }],
      active: true,
      groups: [{ value: 'default', display: 'default', $ref: 'https://gateway.example.test/scim/v2/Groups/default' }],
      meta: { resourceType: 'User', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), location: created.location },
    });
    expect((await okta('GET', `/Users?filter=${filter(`userName eq "TEST.USER@okta.local"`)}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id }] });
    expect((await okta('GET', `/Users/${id}`)).body).toMatchObject({ id, userName, active: true });

    // The person signs in with the password Okta set, and has an API key.
    const person = await login(app, userName, '1mz050nq-okta');
    expect((await person.get('/api/user/self')).body.data).toMatchObject({ username: userName, email: userName, display_name: 'Test User' });
    await seed.setUserQuota(Number(id), 10_000_000);
    const apiKey = (await seed.createToken(Number(id))).apiKey;
    expect((await chat(apiKey)).status).toBe(200);

    // Profile update: Okta sends the whole user with PUT, with the same password when it syncs passwords: no sign-out.
    const updated = await okta('PUT', `/Users/${id}`, { ...created.body, displayName: 'Test U. Renamed', name: { givenName: 'Test', familyName: 'Renamed' }, password: '1mz050nq-okta' });
    expect(updated).toMatchObject({ status: 200, body: { displayName: 'Test U. Renamed', active: true } });
    expect((await person.get('/api/user/self')).body.data.display_name).toBe('Test U. Renamed');

    // Push group: Okta creates the group (an existing gateway group), renames it to itself, then adds and removes members.
    const pushed = await okta('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'vip', members: [] });
    expect(pushed).toMatchObject({ status: 201, location: 'https://gateway.example.test/scim/v2/Groups/vip', body: { schemas: [GROUP_SCHEMA], id: 'vip', displayName: 'vip', members: [] } });
    expect((await okta('PATCH', '/Groups/vip', { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: 'vip', displayName: 'vip' } }] })).status).toBe(200);
    const added = await okta('PATCH', '/Groups/vip', { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: userName }] }] });
    expect(added.body.members).toEqual([{ value: id, display: userName, $ref: `https://gateway.example.test/scim/v2/Users/${id}`, type: 'User' }]);
    expect((await person.get('/api/user/self')).body.data.group).toBe('vip');
    expect((await okta('GET', `/Users/${id}`)).body.groups).toEqual([{ value: 'vip', display: 'vip', $ref: 'https://gateway.example.test/scim/v2/Groups/vip' }]);
    const listedGroups = await okta('GET', '/Groups?startIndex=1&count=100');
    expect(listedGroups.body).toMatchObject({ totalResults: 3, itemsPerPage: 3 });
    expect(listedGroups.body.Resources.map((group: { id: string }) => group.id)).toEqual(['default', 'vip', 'engineering']);
    const removed = await okta('PATCH', '/Groups/vip', { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });
    expect(removed.body.members).toEqual([]);
    expect((await person.get('/api/user/self')).body.data.group).toBe('default');
    await okta('PATCH', '/Groups/vip', { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] });

    // Deactivation: Okta's PATCH without a path.
    const deactivated = await okta('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(deactivated).toMatchObject({ status: 200, body: { id, active: false } });

    const refused = await chat(apiKey);
    expect(refused).toMatchObject({ status: 403, error: { code: 'user_banned' } });
    expect((await person.get('/api/user/self')).status).toBe(401);
    expect((await app.http.post('/api/user/login').send({ username: userName, password: '1mz050nq-okta' })).body.success).toBe(false);

    // Reactivated, the API key works again; the console session was ended and stays ended.
    expect((await okta('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] })).body.active).toBe(true);
    expect((await chat(apiKey)).status).toBe(200);
    expect((await person.get('/api/user/self')).status).toBe(401);
    expect((await login(app, userName, '1mz050nq-okta')).id).toBe(Number(id));
  });

  it("plays Entra ID's sequence: query, create, patch with its shapes (\"Replace\", \"False\"), group membership, delete", async () => {
    // The requests of Microsoft's "Develop a sample SCIM endpoint" reference (Entra's provisioning service), in its order.
    const userName = 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1';
    expect((await entra('GET', `/Users?filter=${filter(`userName eq "${userName}"`)}`)).body).toMatchObject({ totalResults: 0 });
    const created = await entra('POST', '/Users', {
      schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Research' },
    });
    expect(created).toMatchObject({ status: 201, body: { userName, displayName: 'givenName familyName', emails: [{ value: 'test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }], active: true } });
    const id = created.body.id as string;
    expect((await entra('GET', `/Users?filter=${filter('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id, userName }] });
    // externalId is case-exact.
    expect((await entra('GET', `/Users?filter=${filter('externalId eq "0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF"')}`)).body.totalResults).toBe(0);

    const patched = await entra('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'displayName', value: 'Updated Display' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
      ],
    });
    expect(patched).toMatchObject({ status: 200, body: { emails: [{ value: 'updatedemail@microsoft.com' }], displayName: 'Updated Display' } });

    // Group membership: query by name, create, add, check membership with Entra's filter, remove.
    expect((await entra('GET', `/Groups?excludedAttributes=members&filter=${filter('displayName eq "Engineering"')}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id: 'engineering' }] });
    expect((await entra('GET', `/Groups?excludedAttributes=members&filter=${filter('displayName eq "Engineering"')}`)).body.Resources[0].members).toBeUndefined();
    const group = await entra('POST', '/Groups', { schemas: [GROUP_SCHEMA], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'engineering', meta: { resourceType: 'Group' } });
    expect(group).toMatchObject({ status: 201, body: { id: 'engineering' } });
    const membership = `/Groups?excludedAttributes=members&filter=${filter(`id eq "engineering" and members[value eq "${id}"]`)}`;
    expect((await entra('GET', membership)).body.totalResults).toBe(0);
    expect((await entra('PATCH', '/Groups/engineering', { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: id }] }] })).status).toBe(200);
    expect((await entra('GET', membership)).body.totalResults).toBe(1);
    expect((await entra('PATCH', '/Groups/engineering', { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] }] })).body.members).toEqual([]);
    expect((await entra('GET', `/Users/${id}`)).body.groups[0].value).toBe('default');

    // Entra disables with the string "False" (and the capitalised op).
    const person = await entra('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'entra.person@contoso.test', active: true, password: 'entra-pass-123', externalId: 'e-2' });
    const personId = person.body.id as string;
    const session = await login(app, 'entra.person@contoso.test', 'entra-pass-123');
    await seed.setUserQuota(Number(personId), 10_000_000);
    const apiKey = (await seed.createToken(Number(personId))).apiKey;
    expect((await chat(apiKey)).status).toBe(200);
    const disabled = await entra('PATCH', `/Users/${personId}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(disabled.body.active).toBe(false);
    expect(await chat(apiKey)).toMatchObject({ status: 403, error: { code: 'user_banned' } });
    expect((await session.get('/api/user/self')).status).toBe(401);

    // DELETE disables the account and deletes it the gateway's way: gone for SCIM, its row kept.
    expect((await entra('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await entra('GET', `/Users/${id}`)).body).toMatchObject({ schemas: [ERROR], status: '404' });
    expect((await entra('GET', `/Users?filter=${filter(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    const [kept] = await app.app.get(DataSource).query(testSql('SELECT status, deleted_at FROM users WHERE id = ?'), [Number(id)]);
    expect(Number(kept.status)).toBe(2);
    expect(kept.deleted_at).not.toBeNull();
    expect((await entra('POST', '/Users', { schemas: [USER_SCHEMA], userName })).body).toMatchObject({ status: '409', scimType: 'uniqueness' });

    // Deleting a group sends its members back to "default"; the group (a price setting) stays.
    await entra('PATCH', '/Groups/engineering', { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: personId }] }] });
    expect((await entra('DELETE', '/Groups/engineering')).status).toBe(204);
    expect((await entra('GET', '/Groups/engineering')).body).toMatchObject({ id: 'engineering', members: [] });
  });

  it('lists with startIndex and count', async () => {
    const all = await okta('GET', '/Users?count=200');
    const total = all.body.totalResults as number;
    expect(total).toBeGreaterThanOrEqual(4);
    const page = await okta('GET', '/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({ totalResults: total, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((user: { id: string }) => user.id)).toEqual(all.body.Resources.slice(1, 3).map((user: { id: string }) => user.id));
    expect((await okta('GET', '/Users?count=0')).body).toMatchObject({ totalResults: total, itemsPerPage: 0, Resources: [] });
    expect((await okta('GET', '/Groups?startIndex=3&count=5')).body).toMatchObject({ totalResults: 3, itemsPerPage: 1, Resources: [{ id: 'engineering' }] });
  });

  it("refuses bad input in SCIM's error shape, never with a 500", async () => {
    const expectError = (answer: ScimAnswer, status: number, scimType?: string) => {
      expect(answer.contentType).toBe('application/scim+json; charset=utf-8');
      expect(answer.body).toEqual({ schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail: expect.any(String) });
      expect(answer.status).toBe(status);
    };
    expectError(await okta('GET', `/Users?filter=${filter('userName co "x"')}`), 400, 'invalidFilter');
    expectError(await okta('GET', `/Users?filter=${filter('title eq "x"')}`), 400, 'invalidFilter');
    expectError(await okta('GET', `/Users?filter=${filter('userName eq "x" or userName eq "y"')}`), 400, 'invalidFilter');
    expectError(await okta('GET', '/Users?count=many'), 400, 'invalidValue');
    expectError(await okta('GET', '/Users/999999'), 404);
    expectError(await okta('GET', '/Users/not-a-number'), 404);
    expectError(await okta('GET', '/Groups/nope'), 404);
    expectError(await okta('POST', '/Users', { schemas: [USER_SCHEMA] }), 400, 'invalidValue');
    expectError(await okta('POST', '/Users', { userName: 'has space' }), 400, 'invalidValue');
    expectError(await okta('POST', '/Users', { userName: 'x'.repeat(65) }), 400, 'invalidValue');
    expectError(await okta('POST', '/Users', { userName: 'root' }), 409, 'uniqueness');
    expectError(await okta('POST', '/Users', { userName: 'other.person', emails: [{ value: 'TEST.USER@okta.local', primary: true }] }), 409, 'uniqueness');
    expectError(await okta('POST', '/Users', ['not', 'an', 'object']), 400, 'invalidSyntax');
    expectError(await okta('POST', '/Groups', { displayName: 'Made Up Group' }), 400, 'invalidValue');
    expectError(await okta('PATCH', '/Groups/vip', { Operations: [{ op: 'replace', path: 'displayName', value: 'VIP renamed' }] }), 400, 'mutability');

    const target = await okta('POST', '/Users', { userName: 'bad.input.target' });
    const id = target.body.id as string;
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }), 400, 'invalidValue');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'merge', path: 'active', value: true }] }), 400, 'invalidSyntax');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [] }), 400, 'invalidSyntax');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'remove' }] }), 400, 'noTarget');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'remove', path: 'userName' }] }), 400, 'mutability');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'userName', value: 'ROOT' }] }), 409, 'uniqueness');
    expectError(await okta('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }] }), 400, 'invalidPath');
    expectError(await okta('PATCH', '/Groups/vip', { Operations: [{ op: 'add', path: 'members', value: [{ value: '999999' }] }] }), 400, 'invalidValue');

    // The root account is not the identity provider's to change.
    const rootUser = (await okta('GET', `/Users?filter=${filter('userName eq "root"')}`)).body.Resources[0];
    expectError(await okta('PATCH', `/Users/${rootUser.id}`, { Operations: [{ op: 'replace', value: { active: false } }] }), 403);
    expectError(await okta('DELETE', `/Users/${rootUser.id}`), 403);
    expect((await root.get('/api/user/self')).status).toBe(200);

    // Bodies that are not JSON, or not JSON at all.
    const raw = (body: string, contentType: string) =>
      fetch(`${app.baseUrl}/scim/v2/Users`, { method: 'POST', headers: { authorization: `Bearer ${oktaToken}`, 'content-type': contentType }, body }).then(async (response) => ({ status: response.status, body: await response.json() }));
    expect(await raw('{"userName": ', 'application/scim+json')).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    expect(await raw('userName=x', 'application/x-www-form-urlencoded')).toMatchObject({ status: 415, body: { schemas: [ERROR] } });
    expect(await raw(`${'['.repeat(100)}${']'.repeat(100)}`, 'application/json')).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
  });

  it('writes every change to the audit log, naming the token as the actor', async () => {
    const rows = await auditRows();
    const okta = rows.filter((row) => row.actor_username === 'SCIM: Okta').reverse();
    expect(okta.every((row) => row.actor_id === 0 && row.actor_ip !== '')).toBe(true);
    expect(okta.slice(0, 7).map((row) => [row.entity, row.action, Object.keys(row.changes).sort()])).toEqual([
      ['user', 'create', ['display_name', 'email', 'password', 'scim_external_id', 'username']],
      ['user', 'update', ['display_name']],
      ['user', 'update', ['group']],
      ['user', 'update', ['group']],
      ['user', 'update', ['group']],
      ['user', 'disable', ['status']],
      ['user', 'enable', ['status']],
    ]);
    expect(okta[0].changes.password).toEqual({ changed: true });
    expect(okta[2].changes.group).toEqual({ from: 'default', to: 'vip' });
    const entraActions = rows.filter((row) => row.actor_username === 'SCIM: Entra ID').map((row) => row.action);
    expect(entraActions).toEqual(expect.arrayContaining(['create', 'update', 'disable', 'delete']));
    const tokenRows = rows.filter((row) => row.entity === 'scim_token').map((row) => [row.actor_username, row.action, row.changes.name]);
    expect(tokenRows).toEqual(
      expect.arrayContaining([
        ['root', 'create', { from: null, to: 'Okta' }],
        ['root', 'delete', { from: 'to revoke', to: null }],
      ]),
    );
    expect((await root.get('/api/audit/?entity=scim_token')).body.data.total).toBe(4);
  });

  it('never shows a SCIM token in an answer after its creation, in the audit log or in the logs', async () => {
    expect((await root.get('/api/scim/tokens')).body.data[0].last_used_time).toBeGreaterThan(0);
    const everything = answers.join('\n') + written.join('');
    for (const token of [oktaToken, entraToken]) {
      expect(token).toMatch(/^scim_/);
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(token.slice(5));
    }
  });
});
