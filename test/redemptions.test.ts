import { DataSource } from 'typeorm';
import { createAdmin, registerUser, sessionFor, setupRoot, type Session } from './support/accounts';
import { SESSION_COOKIE, SessionsService } from '../src/modules/sessions/sessions.service';
import { UsersService } from '../src/modules/users/users.service';
import { startTestApp, TestApp, testSql } from './support/test-app';

describe('redemption codes', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'code-admin');
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app.stop());

  async function createCodes(body: object): Promise<string[]> {
    const response = await admin.post('/api/redemption/', body);
    expect(response.body).toMatchObject({ success: true });
    return response.body.data;
  }

  async function codeByKey(key: string): Promise<{ id: number; status: number; used_user_id: number; quota: number }> {
    const response = await admin.get(`/api/redemption/search?keyword=${key}`);
    return response.body.data.items[0];
  }

  /** Many signed-in users at once: one shared password hash and sessions made directly, to spare 50 bcrypt rounds. */
  async function signedInUsers(count: number, prefix: string): Promise<Session[]> {
    const usersService = app.app.get(UsersService);
    const sessions = app.app.get(SessionsService);
    const passwordHash = await usersService.hashPassword('racer-pass-1');
    const result: Session[] = [];
    for (let index = 0; index < count; index++) {
      const user = await usersService.create({ username: `${prefix}${index}`, passwordHash });
      const cookie = await sessions.create(user.id);
      result.push(sessionFor(app, user.id, user.username, `${SESSION_COOKIE}=${encodeURIComponent(cookie)}`));
    }
    return result;
  }

  async function quotaOf(userId: number): Promise<number> {
    const [row] = await dataSource.query(testSql('SELECT quota FROM users WHERE id = ?'), [userId]);
    return Number(row.quota);
  }

  it('creates up to 100 unique 32-character keys with the spec defaults, and validates name and count', async () => {
    const keys = await createCodes({ name: 'batch', count: 100 });
    expect(keys).toHaveLength(100);
    expect(new Set(keys).size).toBe(100);
    expect(keys.every((key) => /^[A-Za-z0-9]{32}$/.test(key))).toBe(true);
    const first = await codeByKey(keys[0]);
    expect(first).toMatchObject({ status: 1, quota: 100_000, used_user_id: 0, name: 'batch' });

    const tooMany = await admin.post('/api/redemption/', { name: 'x', count: 101 }).set('Accept-Language', 'en');
    expect(tooMany.body).toMatchObject({ success: false, message: 'The count must be an integer from 1 to 100' });
    const longName = await admin.post('/api/redemption/', { name: 'n'.repeat(21) }).set('Accept-Language', 'en');
    expect(longName.body).toMatchObject({ success: false, message: 'The name must be 1 to 20 characters long' });
    const blank = await admin.post('/api/redemption/', { name: '' });
    expect(blank.body.success).toBe(false);

    const page = await admin.get('/api/redemption/?p=2&page_size=20');
    expect(page.body.data).toMatchObject({ page: 2, page_size: 20 });
    expect(page.body.data.total).toBeGreaterThanOrEqual(100);
    const byName = await admin.get('/api/redemption/search?keyword=batc');
    expect(byName.body.data.total).toBe(100);
  });

  it('redeems once, then answers clearly for used, disabled and wrong codes; edits only unused codes', async () => {
    const [key, disabledKey] = await createCodes({ name: 'single', quota: 5000, count: 2 });
    const user = await registerUser(app, 'redeemer');
    const before = await quotaOf(user.id);
    const redeemed = await user.post('/api/user/topup', { key });
    expect(redeemed.body).toEqual({ success: true, message: '', data: 5000 });
    expect(await quotaOf(user.id)).toBe(before + 5000);
    const [log] = await dataSource.query(testSql('SELECT type, quota, content FROM logs WHERE user_id = ? AND type = 1'), [user.id]);
    expect([Number(log.type), Number(log.quota)]).toEqual([1, 5000]);

    const again = await user.post('/api/user/topup', { key }).set('Accept-Language', 'en');
    expect(again.body).toMatchObject({ success: false, message: 'This code has already been used' });
    const used = await codeByKey(key);
    expect(used).toMatchObject({ status: 3, used_user_id: user.id });
    const edit = await admin.put('/api/redemption/', { id: used.id, name: 'renamed' }).set('Accept-Language', 'en');
    expect(edit.body).toMatchObject({ success: false, message: 'The code has been used and cannot be edited' });
    const enable = await admin.put('/api/redemption/?status_only=true', { id: used.id, status: 1 });
    expect(enable.body.success).toBe(false);

    const other = await codeByKey(disabledKey);
    expect((await admin.put('/api/redemption/?status_only=true', { id: other.id, status: 2 })).body.data.status).toBe(2);
    const disabled = await user.post('/api/user/topup', { key: disabledKey }).set('Accept-Language', 'en');
    expect(disabled.body).toMatchObject({ success: false, message: 'This code is disabled' });
    // Editing is for unused codes only (spec: status 1), as in new-api: a disabled code is enabled first.
    const refused = await admin.put('/api/redemption/', { id: other.id, name: 'edited', quota: 7000 }).set('Accept-Language', 'en');
    expect(refused.body).toMatchObject({ success: false, message: 'The code is disabled; enable it before editing' });
    expect(await codeByKey(disabledKey)).toMatchObject({ name: 'single', quota: 5000, status: 2 });
    expect((await admin.put('/api/redemption/?status_only=true', { id: other.id, status: 1 })).body.data.status).toBe(1);
    const renamed = await admin.put('/api/redemption/', { id: other.id, name: 'edited', quota: 7000 });
    expect(renamed.body.data).toMatchObject({ name: 'edited', quota: 7000, status: 1 });

    const wrong = await user.post('/api/user/topup', { key: 'x'.repeat(32) }).set('Accept-Language', 'en');
    expect(wrong.body).toMatchObject({ success: false, message: 'Invalid redemption code' });
    const empty = await user.post('/api/user/topup', { key: '' }).set('Accept-Language', 'en');
    expect(empty.body).toMatchObject({ success: false, message: 'Please enter a redemption code' });
    expect(await quotaOf(user.id)).toBe(before + 5000);

    expect((await admin.delete(`/api/redemption/${other.id}/`)).body.success).toBe(true);
    expect((await admin.get(`/api/redemption/${other.id}`)).body.success).toBe(false);
  });

  it('gives one credit when 50 users send the same code at the same moment', async () => {
    const [key] = await createCodes({ name: 'race', quota: 12_345 });
    const users = await signedInUsers(50, 'racer');
    const results = await Promise.all(users.map((user) => user.post('/api/user/topup', { key })));
    const winners = results.filter((result) => result.body.success);
    expect(winners).toHaveLength(1);
    expect(results.every((result) => result.status === 200)).toBe(true);
    const [sum] = await dataSource.query("SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS total FROM logs WHERE type = 1 AND content LIKE '%兑换码%' AND quota = 12345");
    expect([Number(sum.n), Number(sum.total)]).toEqual([1, 12_345]);
    const code = await codeByKey(key);
    const winner = users[results.findIndex((result) => result.body.success)];
    expect(code).toMatchObject({ status: 3, used_user_id: winner.id });
    expect(await quotaOf(winner.id)).toBe(12_345);
  });

  it('limits redemption attempts per user against key guessing', async () => {
    const guesser = await registerUser(app, 'guesser');
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt++) answers.push(await guesser.post('/api/user/topup', { key: `guess${attempt}`.padEnd(32, 'x') }).set('Accept-Language', 'en'));
    expect(answers.slice(0, 10).every((answer) => answer.body.message === 'Invalid redemption code')).toBe(true);
    expect(answers[10].status).toBe(429);
    expect(answers[10].body).toMatchObject({ success: false, message: 'Too many redemption attempts; please wait a minute' });
  });

  it('keeps codes for administrators: an ordinary user cannot list or create them', async () => {
    const user = await registerUser(app, 'not-admin');
    expect((await user.get('/api/redemption/')).status).toBe(403);
    expect((await user.post('/api/redemption/', { name: 'mine' })).status).toBe(403);
  });
});
