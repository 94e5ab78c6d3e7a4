import { DataSource } from 'typeorm';
import { LOG_TYPE_CONSUME, LOG_TYPE_TOPUP } from '../src/modules/logs/entities/log.entity';
import { logText } from '../src/modules/logs/log-text';
import { LogsService } from '../src/modules/logs/logs.service';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp, testSql } from './support/test-app';

const now = () => Math.floor(Date.now() / 1000);

describe('usage logs', () => {
  let app: TestApp;
  let db: DataSource;
  let root: Session;
  let admin: Session;
  let alice: Session;
  let bob: Session;

  const other = JSON.stringify({ frt: 300, model_ratio: 1.25, admin_info: { use_channel: ['7', '8'] } });

  /** Consume rows as the relay writes them, with created_at set afterwards for old ones. */
  async function consume(user: Session, fields: Record<string, unknown>, createdAt?: number): Promise<void> {
    const logs = app.app.get(LogsService);
    await logs.record({
      type: LOG_TYPE_CONSUME,
      user_id: user.id,
      username: user.username,
      token_name: 'tok',
      model_name: 'gpt-4o',
      channel_id: 7,
      channel_name: 'upstream-7',
      group: 'default',
      ip: '203.0.113.9',
      prompt_tokens: 10,
      completion_tokens: 5,
      quota: 100,
      other,
      ...fields,
    });
    if (createdAt !== undefined) await db.query(testSql('UPDATE logs SET created_at = ? WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM logs) AS newest)'), [createdAt]);
  }

  beforeAll(async () => {
    app = await startTestApp();
    db = app.app.get(DataSource);
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'logadmin');
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');

    await consume(alice, { model_name: 'gpt-4o', quota: 100 });
    await consume(alice, { model_name: 'gpt-4o-mini', token_name: 'second', quota: 20, group: 'vip', channel_id: 9, channel_name: 'upstream-9' });
    await consume(alice, { model_name: 'claude-3-5-sonnet-20241022', quota: 300 }, now() - 7200);
    await consume(bob, { model_name: 'gpt-4o', quota: 1000, prompt_tokens: 100, completion_tokens: 50 });
    await consume(bob, { model_name: '100%_model', quota: 1 });
    await app.app.get(LogsService).recordTopUp({ id: alice.id, username: alice.username }, logText('redeemed', { quota: 500000, id: 7 }), 500000);
  });
  afterAll(() => app.stop());

  it('lists every entry for admins with channel, ip and admin_info', async () => {
    const response = await admin.get('/api/log/?p=1&page_size=50');
    expect(response.body.data).toMatchObject({ page: 1, page_size: 50 });
    const items = response.body.data.items as Record<string, unknown>[];
    // Registration and promotion may log too; our six entries are there.
    expect(items.filter((row) => row.type === LOG_TYPE_CONSUME)).toHaveLength(5);
    const first = items.find((row) => row.model_name === 'gpt-4o-mini')!;
    expect(first).toMatchObject({ type: 2, user_id: alice.id, username: 'alice', token_name: 'second', channel: 9, channel_name: 'upstream-9', group: 'vip', ip: '203.0.113.9', quota: 20, prompt_tokens: 10, completion_tokens: 5, is_stream: false });
    expect(JSON.parse(first.other as string).admin_info).toEqual({ use_channel: ['7', '8'] });
    // Newest first by time: the entry backdated two hours comes after the later ones.
    const times = items.map((row) => row.created_at as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(items.findIndex((row) => row.model_name === 'claude-3-5-sonnet-20241022')).toBeGreaterThan(items.findIndex((row) => row.model_name === '100%_model'));
  });

  it('filters by type, username, token, model, group, channel and time', async () => {
    const count = async (query: string) => (await admin.get(`/api/log/?page_size=100&${query}`)).body.data.total as number;
    expect(await count('type=2')).toBe(5);
    expect(await count('type=1')).toBe(1);
    expect(await count('type=2&username=alice')).toBe(3);
    expect(await count('type=2&username=ali')).toBe(0);
    expect(await count('token_name=second')).toBe(1);
    expect(await count('model_name=gpt-4o')).toBe(3);
    expect(await count('model_name=claude')).toBe(1);
    expect(await count(`model_name=${encodeURIComponent('%_')}`)).toBe(1);
    expect(await count(`model_name=${encodeURIComponent("' OR '1'='1")}`)).toBe(0);
    expect(await count('group=vip')).toBe(1);
    expect(await count('channel=9')).toBe(1);
    expect(await count(`type=2&start_timestamp=${now() - 3600}`)).toBe(4);
    expect(await count(`type=2&end_timestamp=${now() - 3600}`)).toBe(1);
    expect(await count(`type=2&start_timestamp=${now() - 3600}&end_timestamp=${now() + 3600}&username=bob&model_name=gpt`)).toBe(1);
  });

  it('scopes the self endpoints to the caller and hides admin-only fields', async () => {
    const own = await alice.get('/api/log/self/?p=1&page_size=50&type=2');
    const items = own.body.data.items as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    for (const row of items) {
      expect(row.user_id).toBe(alice.id);
      expect(row).not.toHaveProperty('channel');
      expect(row).not.toHaveProperty('channel_name');
      expect(row).not.toHaveProperty('ip');
      expect(JSON.parse(row.other as string)).toEqual({ frt: 300, model_ratio: 1.25 });
    }
    // username and channel filters are the admin's: ignored here, never a way to read others.
    const sneaky = await alice.get('/api/log/self/?username=bob&channel=7&type=2');
    expect((sneaky.body.data.items as { user_id: number }[]).every((row) => row.user_id === alice.id)).toBe(true);
    expect(sneaky.body.data.total).toBe(3);
    expect((await bob.get('/api/log/self/?type=2')).body.data.total).toBe(2);
  });

  it('answers quota over the filter and rpm/tpm over the last minute', async () => {
    const all = await admin.get('/api/log/stat?type=0');
    expect(all.body.data).toEqual({ quota: 100 + 20 + 300 + 1000 + 1, rpm: 4, tpm: 15 + 15 + 150 + 15 });
    const aliceStat = await admin.get('/api/log/stat?username=alice');
    expect(aliceStat.body.data).toEqual({ quota: 420, rpm: 2, tpm: 30 });
    const recentOnly = await admin.get(`/api/log/stat?username=alice&start_timestamp=${now() - 3600}`);
    expect(recentOnly.body.data).toEqual({ quota: 120, rpm: 2, tpm: 30 });
    const own = await bob.get('/api/log/self/stat?username=alice');
    expect(own.body.data).toEqual({ quota: 1001, rpm: 2, tpm: 165 });
    const byModel = await alice.get('/api/log/self/stat?model_name=gpt-4o-mini');
    expect(byModel.body.data).toEqual({ quota: 20, rpm: 1, tpm: 15 });
  });

  it('rejects malformed filters', async () => {
    for (const query of ['type=9', 'type=abc', 'start_timestamp=-5', 'start_timestamp=1.5', 'channel=x', `username=${'u'.repeat(65)}`]) {
      const response = await admin.get(`/api/log/?${query}`);
      expect({ query, success: response.body.success }).toEqual({ query, success: false });
    }
  });

  it('keeps logs and their stats away from ordinary users', async () => {
    expect((await alice.get('/api/log/')).status).toBe(403);
    expect((await alice.get('/api/log/stat')).status).toBe(403);
    expect((await alice.delete(`/api/log/?target_timestamp=${now() + 10}`)).status).toBe(403);
    expect((await app.http.get('/api/log/self/')).status).toBe(401);
  });

  it('records an admin quota change as a management entry', async () => {
    const response = await root.put('/api/user/', { id: alice.id, quota: 123456 });
    expect(response.body.success).toBe(true);
    const entries = (await admin.get(`/api/log/?type=3&username=alice`)).body.data.items as { content: string; user_id: number }[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: alice.id, content: expect.stringContaining('123456') });
    // Saving the same quota again is not a change.
    await root.put('/api/user/', { id: alice.id, quota: 123456 });
    expect((await admin.get('/api/log/?type=3&username=alice')).body.data.total).toBe(1);
    expect((await alice.get('/api/log/self/?type=3')).body.data.total).toBe(1);
    expect((await alice.get(`/api/log/self/?type=${LOG_TYPE_TOPUP}`)).body.data.items[0]).toMatchObject({ content: '通过兑换码充值 500000 额度，兑换码 ID 7', quota: 500000 });
  });

  it('deletes entries older than a timestamp and answers the count', async () => {
    const before = Number((await db.query('SELECT COUNT(*) AS n FROM logs'))[0].n);
    for (const query of ['', 'target_timestamp=', 'target_timestamp=abc', 'target_timestamp=0', 'target_timestamp=-1']) {
      const response = await admin.delete(`/api/log/?${query}`).set('Accept-Language', 'en');
      expect({ query, body: response.body }).toMatchObject({ query, body: { success: false, message: 'Please choose the log time' } });
    }
    expect(Number((await db.query('SELECT COUNT(*) AS n FROM logs'))[0].n)).toBe(before);

    const cleared = await admin.delete(`/api/log/?target_timestamp=${now() - 3600}`).set('Accept-Language', 'en');
    expect(cleared.body).toMatchObject({ success: true, data: 1, message: '1 log entries cleared' });
    expect((await admin.get('/api/log/?model_name=claude')).body.data.total).toBe(0);
    expect(Number((await db.query('SELECT COUNT(*) AS n FROM logs'))[0].n)).toBe(before - 1);
  });

  it('clears more rows than one chunk, oldest first, and keeps the newer ones', async () => {
    const old = now() - 30 * 86_400;
    const rows = Array.from({ length: 1000 }, () => '(?, ?, ?, ?)').join(', ');
    for (let batch = 0; batch < 12; batch++) {
      const parameters = Array.from({ length: 1000 }, (_, i) => [alice.id, old + batch * 1000 + i, LOG_TYPE_CONSUME, 'bulk']).flat();
      await db.query(testSql(`INSERT INTO logs (user_id, created_at, type, username) VALUES ${rows}`), parameters);
    }
    const before = Number((await db.query('SELECT COUNT(*) AS n FROM logs'))[0].n);
    // The list's total stops counting at 10,000 rows and says there are more; a total under the cap is exact.
    expect((await admin.get('/api/log/?page_size=10')).body.data).toMatchObject({ total: 10_000, total_capped: true, items: expect.any(Array) });
    expect((await admin.get('/api/log/self/?page_size=10')).body.data).toMatchObject({ total: 0, total_capped: false });
    const cleared = await admin.delete(`/api/log/?target_timestamp=${old + 11_000}`);
    expect(cleared.body).toMatchObject({ success: true, data: 11_000 });
    expect(Number((await db.query('SELECT COUNT(*) AS n FROM logs'))[0].n)).toBe(before - 11_000);
    expect(Number((await db.query(testSql('SELECT MIN(created_at) AS t FROM logs WHERE username = ?'), ['bulk']))[0].t)).toBe(old + 11_000);
    expect((await admin.get('/api/log/?username=bulk')).body.data).toMatchObject({ total: 1_000, total_capped: false });
  });
});
