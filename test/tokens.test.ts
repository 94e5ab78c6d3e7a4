import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp, testSql } from './support/test-app';

interface TokenView {
  id: number;
  name: string;
  key: string;
  status: number;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  group: string;
  allow_ips: string;
  model_limits: string;
}

const now = () => Math.floor(Date.now() / 1000);

describe('token management', () => {
  let app: TestApp;
  let db: DataSource;
  let root: Session;
  let alice: Session;
  let bob: Session;

  async function createToken(session: Session, body: object): Promise<TokenView[]> {
    const response = await session.post('/api/token/', body).set('Accept-Language', 'en');
    if (!response.body.success) throw new Error(`create failed: ${response.body.message}`);
    return response.body.data;
  }

  const tokenRows = () => db.query('SELECT * FROM tokens ORDER BY id');

  beforeAll(async () => {
    app = await startTestApp();
    db = app.app.get(DataSource);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');
  });
  afterAll(() => app.stop());

  it('creates a token with a 48-character key shown with sk-', async () => {
    const [token] = await createToken(alice, { name: 'first', remain_quota: 500000, expired_time: -1, allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16\n2001:db8::/32', model_limits: 'gpt-4o, gpt-4o-mini,,gpt-4o' });
    expect(token.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    expect(token).toMatchObject({ name: 'first', status: 1, remain_quota: 500000, unlimited_quota: false, expired_time: -1, allow_ips: '10.0.0.1\n192.168.0.0/16\n2001:db8::/32', model_limits: 'gpt-4o,gpt-4o-mini', group: '' });
    // At rest the key is encrypted, and found by its keyed hash: a database dump shows neither the key nor a plain hash of it.
    const [row] = await db.query(testSql('SELECT * FROM tokens WHERE id = ?'), [token.id]);
    expect(row.key).toMatch(/^enc:v1:/);
    expect(row.key).not.toContain(token.key.slice(3));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.key_hash).not.toBe(createHash('sha256').update(token.key.slice(3)).digest('hex'));

    const list = await alice.get('/api/token/?p=1&size=10');
    expect(list.body.data).toMatchObject({ page: 1, page_size: 10, total: 1 });
    expect(list.body.data.items[0].key).toBe(token.key);
    expect((await alice.get(`/api/token/${token.id}`)).body.data.key).toBe(token.key);
  });

  it('creates several tokens, extra ones with a random suffix', async () => {
    const created = await createToken(alice, { name: 'bulk', count: 3, unlimited_quota: true });
    expect(created).toHaveLength(3);
    expect(created[0].name).toBe('bulk');
    for (const token of created.slice(1)) expect(token.name).toMatch(/^bulk-[A-Za-z0-9]{6}$/);
    expect(new Set(created.map((token) => token.key)).size).toBe(3);
    const page = await alice.get('/api/token/?p=1&page_size=2');
    expect(page.body.data).toMatchObject({ page_size: 2, total: 4 });
    expect(page.body.data.items).toHaveLength(2);
  });

  it('refuses invalid tokens and writes nothing', async () => {
    const before = await tokenRows();
    const cases: [object, string][] = [
      [{ name: 'x'.repeat(31) }, 'The token name is too long'],
      [{ name: 'ok', remain_quota: -1 }, 'The remaining quota must be a non-negative integer'],
      [{ name: 'ok', remain_quota: 1.5 }, 'The remaining quota must be a non-negative integer'],
      [{ name: 'ok', remain_quota: '100' }, 'The remaining quota must be a non-negative integer'],
      [{ name: 'ok', expired_time: now() - 10 }, 'The expiry must be -1 (never) or a time in the future'],
      [{ name: 'ok', expired_time: -2 }, 'The expiry must be -1 (never) or a time in the future'],
      [{ name: 'ok', expired_time: '2025-01-01 00:00:00' }, 'The expiry must be -1 (never) or a time in the future'],
      [{ name: 'ok', count: 0 }, 'The count must be an integer from 1 to 100'],
      [{ name: 'ok', count: 101 }, 'The count must be an integer from 1 to 100'],
      [{ name: 'ok', count: 2.5 }, 'The count must be an integer from 1 to 100'],
      [{ name: 'ok', allow_ips: '10.0.0.1\nnot-an-ip' }, 'Invalid address in the IP allow list: not-an-ip'],
      [{ name: 'ok', allow_ips: '10.0.0.0/33' }, 'Invalid address in the IP allow list: 10.0.0.0/33'],
      [{ name: 'ok', allow_ips: '10.0.0.1; DROP TABLE tokens' }, 'Invalid address in the IP allow list: 10.0.0.1; DROP TABLE tokens'],
      [{ name: 'ok', group: 'svip' }, 'You may not use the group: svip'],
      [{ name: 'ok', group: 'auto' }, 'You may not use the group: auto'],
      [{ name: 'ok', unlimited_quota: 'yes' }, 'unlimited_quota must be a boolean'],
    ];
    for (const [body, message] of cases) {
      const response = await alice.post('/api/token/', body).set('Accept-Language', 'en');
      expect({ body, response: response.body }).toMatchObject({ body, response: { success: false, message } });
    }
    expect(await tokenRows()).toEqual(before);
  });

  it('accepts usable groups, the own group and auto when automatic groups are on', async () => {
    expect((await createToken(alice, { name: 'vip', group: 'vip' }))[0].group).toBe('vip');
    expect((await createToken(alice, { name: 'own', group: 'default' }))[0].group).toBe('default');
    expect((await root.put('/api/option/', { key: 'DefaultUseAutoGroup', value: 'true' })).body.success).toBe(true);
    expect((await createToken(alice, { name: 'auto', group: 'auto' }))[0].group).toBe('auto');
    await root.put('/api/option/', { key: 'DefaultUseAutoGroup', value: 'false' });
  });

  it('keeps every user to their own tokens', async () => {
    const [bobToken] = await createToken(bob, { name: 'bob-secret', remain_quota: 10 });
    const before = await tokenRows();

    const aliceList = (await alice.get('/api/token/?p=1&size=100')).body.data.items as TokenView[];
    expect(aliceList.some((token) => token.id === bobToken.id)).toBe(false);
    const byId = await alice.get(`/api/token/${bobToken.id}`).set('Accept-Language', 'en');
    expect(byId.body).toMatchObject({ success: false, message: 'Token not found' });
    const byKey = await alice.get(`/api/token/search?token=${bobToken.key}`);
    expect(byKey.body.data.items).toEqual([]);
    const byName = await alice.get('/api/token/search?keyword=bob');
    expect(byName.body.data.items).toEqual([]);
    expect((await alice.put('/api/token/', { id: bobToken.id, name: 'stolen' })).body.success).toBe(false);
    expect((await alice.put('/api/token/?status_only=true', { id: bobToken.id, status: 2 })).body.success).toBe(false);
    expect((await alice.delete(`/api/token/${bobToken.id}/`)).body.success).toBe(false);
    expect((await alice.post('/api/token/batch', { ids: [bobToken.id] })).body).toMatchObject({ success: true, data: 0 });
    // Not even root sees another user's token through these endpoints.
    expect((await root.get(`/api/token/${bobToken.id}`)).body.success).toBe(false);
    expect(await tokenRows()).toEqual(before);

    expect((await bob.get(`/api/token/${bobToken.id}`)).body.data.name).toBe('bob-secret');
  });

  it('searches by name and by key with or without sk-, literally', async () => {
    const [token] = await createToken(alice, { name: '50%_off' });
    await createToken(alice, { name: '50xxoff' });
    const names = async (query: string) => ((await alice.get(`/api/token/search?${query}`)).body.data.items as TokenView[]).map((t) => t.name);
    expect(await names(`keyword=${encodeURIComponent('%_')}`)).toEqual(['50%_off']);
    expect(await names(`token=${token.key}`)).toEqual(['50%_off']);
    expect(await names(`token=${token.key.slice(3)}`)).toEqual(['50%_off']);
    expect(await names(`token=${token.key.slice(3, 20)}`)).toEqual(['50%_off']);
    expect(await names(`token=${encodeURIComponent('%')}`)).toEqual([]);
  });

  it('edits a token: only present fields change, never the status', async () => {
    const [token] = await createToken(alice, { name: 'editable', remain_quota: 100 });
    const future = now() + 3600;
    const edited = await alice.put('/api/token/', { id: token.id, name: 'renamed', remain_quota: 200, expired_time: future, status: 2, allow_ips: '', model_limits_enabled: true, model_limits: 'gpt-4o' });
    expect(edited.body.data).toMatchObject({ name: 'renamed', remain_quota: 200, expired_time: future, status: 1, model_limits_enabled: true, model_limits: 'gpt-4o', key: token.key });
    const invalid = await alice.put('/api/token/', { id: token.id, name: 'y'.repeat(31) }).set('Accept-Language', 'en');
    expect(invalid.body).toMatchObject({ success: false, message: 'The token name is too long' });
    expect((await alice.put('/api/token/', { id: token.id, group: 'svip' })).body.success).toBe(false);
    expect((await alice.get(`/api/token/${token.id}`)).body.data).toMatchObject({ name: 'renamed', group: '' });
  });

  it('enables and disables, but never enables an expired or exhausted token', async () => {
    const [token] = await createToken(alice, { name: 'toggle', remain_quota: 5 });
    const disable = await alice.put('/api/token/?status_only=true', { id: token.id, status: 2 });
    expect(disable.body).toMatchObject({ success: true, data: { status: 2 } });
    expect((await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 })).body.data.status).toBe(1);
    const bad = await alice.put('/api/token/?status_only=true', { id: token.id, status: 3 }).set('Accept-Language', 'en');
    expect(bad.body).toMatchObject({ success: false, message: 'A token status can only be set to 1 (enabled) or 2 (disabled)' });
    expect((await alice.put('/api/token/?status_only=true', { id: token.id })).body.success).toBe(false);

    // Expired: the relay would have marked it 3.
    const pastExpiry = now() - 60;
    await db.query(testSql('UPDATE tokens SET status = 3, expired_time = ? WHERE id = ?'), [pastExpiry, token.id]);
    const expired = await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 }).set('Accept-Language', 'en');
    expect(expired.body.success).toBe(false);
    expect(expired.body.message).toContain('has expired');
    // An edit that keeps the old (past) expiry is allowed; a new past one is not.
    expect((await alice.put('/api/token/', { id: token.id, name: 'still-expired', expired_time: pastExpiry })).body.success).toBe(true);
    expect((await alice.put('/api/token/', { id: token.id, expired_time: pastExpiry - 60 })).body.success).toBe(false);
    expect((await alice.put('/api/token/', { id: token.id, expired_time: -1 })).body.success).toBe(true);
    expect((await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 })).body.data.status).toBe(1);

    // Exhausted.
    await db.query(testSql('UPDATE tokens SET status = 4, remain_quota = 0 WHERE id = ?'), [token.id]);
    const exhausted = await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 }).set('Accept-Language', 'en');
    expect(exhausted.body).toMatchObject({ success: false, message: expect.stringContaining('quota is used up') });
    const [row] = await db.query(testSql('SELECT * FROM tokens WHERE id = ?'), [token.id]);
    expect(Number(row.status)).toBe(4);
    expect((await alice.put('/api/token/', { id: token.id, unlimited_quota: true })).body.success).toBe(true);
    expect((await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 })).body.data.status).toBe(1);
  });

  it('deletes one token and several', async () => {
    const created = await createToken(alice, { name: 'gone', count: 3 });
    expect((await alice.delete(`/api/token/${created[0].id}/`)).body.success).toBe(true);
    expect((await alice.get(`/api/token/${created[0].id}`)).body.success).toBe(false);
    expect((await alice.delete(`/api/token/${created[0].id}`)).body.success).toBe(false);
    const batch = await alice.post('/api/token/batch', { ids: [created[1].id, created[2].id, 999999] });
    expect(batch.body).toMatchObject({ success: true, data: 2 });
    const empty = await alice.post('/api/token/batch', { ids: [] }).set('Accept-Language', 'en');
    expect(empty.body).toMatchObject({ success: false, message: 'Please select at least one token' });
    expect((await alice.get('/api/token/abc').set('Accept-Language', 'en')).body).toMatchObject({ success: false, message: 'Invalid id' });
  });

  it('needs a signed-in user', async () => {
    expect((await app.http.get('/api/token/')).status).toBe(401);
    expect((await app.http.post('/api/token/').send({ name: 'x' })).status).toBe(401);
  });
});
