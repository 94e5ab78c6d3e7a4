import { DataSource } from 'typeorm';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { login, registerUser, ROOT_PASSWORD, ROOT_USERNAME, Session, setupRoot } from './support/accounts';
import { sameDatabaseEnv, startTestApp, TestApp } from './support/test-app';

describe('registration, sign-in and sessions', () => {
  let app: TestApp;
  let root: Session;
  let users: () => Promise<UserEntity[]>;

  beforeAll(async () => {
    app = await startTestApp({ CRITICAL_RATE_LIMIT: '1000' });
    root = await setupRoot(app);
    const dataSource = app.app.get(DataSource);
    users = () => dataSource.getRepository(UserEntity).find({ withDeleted: true, order: { id: 'ASC' } });
  });
  afterAll(() => app.stop());

  const setOption = async (key: string, value: string) => {
    const response = await root.put('/api/option/', { key, value });
    expect(response.body).toMatchObject({ success: true });
  };

  it('rejects bad registrations with a clear message and writes nothing', async () => {
    const before = (await users()).length;
    const cases: [object, string][] = [
      [{ username: '', password: 'abcdefgh' }, 'Please enter the username and password!'],
      [{ password: 'abcdefgh' }, 'Please enter the username and password!'],
      [{ username: 'someone' }, 'Please enter the username and password!'],
      [{ username: 'thirteenchars', password: 'abcdefgh' }, 'Username must be at most 12 characters'],
      [{ username: 'shorty', password: 'abc' }, 'Password must be 8 to 20 characters long'],
      [{ username: 'longpass', password: 'a'.repeat(21) }, 'Password must be 8 to 20 characters long'],
      [{ username: 'mismatch', password: 'abcdefgh', password2: 'abcdefgX' }, 'The two passwords entered do not match'],
      [{ username: 'white space', password: 'abcdefgh' }, 'Username cannot contain whitespace, control or invisible characters'],
      [{ username: 123, password: 'abcdefgh' }, 'Please enter the username and password!'],
      [{ username: ROOT_USERNAME, password: 'abcdefgh' }, 'The username is already taken, or belonged to a deleted account'],
    ];
    for (const [body, message] of cases) {
      const response = await app.http.post('/api/user/register').set('Accept-Language', 'en').send(body);
      expect({ body, status: response.status, answer: response.body }).toEqual({ body, status: 200, answer: { success: false, message, data: null } });
    }
    const chinese = await app.http.post('/api/user/register').send({ username: 'x', password: 'abc' });
    expect(chinese.body.message).toBe('密码长度必须在 8 到 20 个字符之间');
    expect((await users()).length).toBe(before);
  });

  it('answers malformed JSON with a 400 in the envelope, not a 500', async () => {
    const response = await app.http.post('/api/user/register').set('Content-Type', 'application/json').set('Accept-Language', 'en').send('{"username": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: 'The request body is not valid JSON', data: null });
  });

  it('gives the welcome quota and rewards the inviter in one go', async () => {
    await setOption('QuotaForNewUser', '1000');
    await setOption('QuotaForInviter', '300');
    await setOption('QuotaForInvitee', '200');
    const inviter = await registerUser(app, 'inviter');
    const affCode = (await inviter.get('/api/user/aff')).body.data as string;
    expect(affCode).toMatch(/^[A-Za-z0-9]{6}$/);
    const invitee = await registerUser(app, 'invitee', 'invitee-pass', { aff_code: affCode });

    const inviteeSelf = (await invitee.get('/api/user/self')).body.data;
    expect(inviteeSelf).toMatchObject({ quota: 1200, inviter_id: inviter.id, group: 'default', role: 1 });
    const inviterSelf = (await inviter.get('/api/user/self')).body.data;
    expect(inviterSelf).toMatchObject({ quota: 1000, aff_count: 1, aff_quota: 300, aff_history_quota: 300 });

    const stranger = await registerUser(app, 'stranger', 'stranger-pass', { aff_code: 'NOSUCH' });
    expect((await stranger.get('/api/user/self')).body.data).toMatchObject({ quota: 1000, inviter_id: 0 });
    await setOption('QuotaForNewUser', '0');
  });

  it('honours the registration switches', async () => {
    await setOption('RegisterEnabled', 'false');
    const closed = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username: 'late', password: 'abcdefgh' });
    expect(closed.body).toMatchObject({ success: false, message: 'The administrator has closed registration' });
    await setOption('RegisterEnabled', 'true');
    await setOption('PasswordRegisterEnabled', 'false');
    const noPassword = await app.http.post('/api/user/register').send({ username: 'late', password: 'abcdefgh' });
    expect(noPassword.body.success).toBe(false);
    await setOption('PasswordRegisterEnabled', 'true');
  });

  it('signs in by username, never returns secrets, and refuses wrong passwords alike', async () => {
    const response = await app.http.post('/api/user/login').send({ username: 'inviter', password: 'user-pass-1' });
    expect(response.body.success).toBe(true);
    expect(response.body.data).not.toHaveProperty('password');
    expect(response.body.data).not.toHaveProperty('access_token');
    expect(response.body.data.require_password_change).toBe(false);
    const cookie = (response.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);

    const wrong = await app.http.post('/api/user/login').set('Accept-Language', 'en').send({ username: 'inviter', password: 'nope-nope' });
    const unknown = await app.http.post('/api/user/login').set('Accept-Language', 'en').send({ username: 'ghost', password: 'nope-nope' });
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ success: false });
    const empty = await app.http.post('/api/user/login').set('Accept-Language', 'en').send({ username: '', password: '' });
    expect(empty.body.message).toBe('Please enter the username and password!');
  });

  it('flags the root account signing in with a well-known default password', async () => {
    expect((await root.put('/api/user/self', { password: '12345678', original_password: ROOT_PASSWORD })).body.success).toBe(true);
    const flagged = await app.http.post('/api/user/login').send({ username: ROOT_USERNAME, password: '12345678' });
    expect(flagged.body.data.require_password_change).toBe(true);
    expect((await root.put('/api/user/self', { password: ROOT_PASSWORD, original_password: '12345678' })).body.success).toBe(true);
  });

  it('rotates the session id at sign-in and really ends it at logout', async () => {
    const first = await login(app, 'inviter', 'user-pass-1');
    const again = await app.http.post('/api/user/login').set('Cookie', first.cookie).send({ username: 'inviter', password: 'user-pass-1' });
    const second = (again.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    expect(second).not.toBe(first.cookie);
    expect((await first.get('/api/user/self')).status).toBe(401);

    const current = await login(app, 'inviter', 'user-pass-1');
    expect((await current.get('/api/user/self')).status).toBe(200);
    await current.get('/api/user/logout').expect(200);
    expect((await current.get('/api/user/self')).status).toBe(401);
  });

  it('keeps people signed in across a restart, since sessions are stored server-side', async () => {
    const session = await login(app, 'inviter', 'user-pass-1');
    // A second app on the same SQLite file stands in for a restart (MySQL, PostgreSQL: the same scratch database).
    const second = await startTestApp(sameDatabaseEnv(app.config));
    try {
      const response = await second.http.get('/api/user/self').set('Cookie', session.cookie).set('New-Api-User', String(session.id));
      expect(response.status).toBe(200);
      expect(response.body.data.username).toBe('inviter');
    } finally {
      await second.app.close();
      second.server.close();
    }
  });

  it('rejects a forged or tampered session cookie', async () => {
    const session = await login(app, 'inviter', 'user-pass-1');
    const tampered = session.cookie.replace(/session=([^.]+)\./, 'session=$1x.');
    expect((await app.http.get('/api/user/self').set('Cookie', tampered).set('New-Api-User', String(session.id))).status).toBe(401);
  });

  it('lets a system access token stand in for the cookie, shown once and stored hashed', async () => {
    const session = await login(app, 'inviter', 'user-pass-1');
    const token = (await session.get('/api/user/token')).body.data as string;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const stored = (await users()).find((u) => u.id === session.id)!;
    expect(stored.access_token).not.toBe(token);
    const viaToken = await app.http.get('/api/user/self').set('Authorization', token).set('New-Api-User', String(session.id));
    expect(viaToken.body.data.username).toBe('inviter');
    const bearer = await app.http.get('/api/user/self').set('Authorization', `Bearer ${token}`).set('New-Api-User', String(session.id));
    expect(bearer.status).toBe(200);
    const wrong = await app.http.get('/api/user/self').set('Authorization', 'x'.repeat(32)).set('New-Api-User', String(session.id));
    expect(wrong.status).toBe(401);
    const fresh = (await session.get('/api/user/token')).body.data as string;
    expect((await app.http.get('/api/user/self').set('Authorization', token).set('New-Api-User', String(session.id))).status).toBe(401);
    expect((await app.http.get('/api/user/self').set('Authorization', fresh).set('New-Api-User', String(session.id))).status).toBe(200);
  });

  it('turns away banned and deleted users, even with a live session', async () => {
    const victim = await registerUser(app, 'victim');
    expect((await root.post('/api/user/manage', { id: victim.id, action: 'disable' })).body.data).toEqual({ status: 2, role: 1 });
    expect((await victim.get('/api/user/self')).status).toBe(401);
    const banned = await app.http.post('/api/user/login').send({ username: 'victim', password: 'user-pass-1' });
    expect(banned.body.success).toBe(false);

    await root.post('/api/user/manage', { id: victim.id, action: 'enable' });
    const back = await login(app, 'victim', 'user-pass-1');
    await root.post('/api/user/manage', { id: victim.id, action: 'delete' });
    expect((await back.get('/api/user/self')).status).toBe(401);
    expect((await app.http.post('/api/user/login').send({ username: 'victim', password: 'user-pass-1' })).body.success).toBe(false);
    expect((await app.http.post('/api/user/register').send({ username: 'victim', password: 'abcdefgh' })).body.success).toBe(false);
  });
});

describe('critical rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ CRITICAL_RATE_LIMIT: '3', CRITICAL_RATE_LIMIT_DURATION: '60' });
  });
  afterAll(() => app.stop());

  it('answers 429 past CRITICAL_RATE_LIMIT sign-in attempts per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.http.post('/api/user/login').send({ username: 'a', password: 'bbbbbbbb' })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username: 'a', password: 'bbbbbbbb' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: 'Too many requests, please try again later', data: null });
    expect((await app.http.get('/api/status')).status).toBe(200);
  });
});

describe('global API rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ GLOBAL_API_RATE_LIMIT: '5', GLOBAL_API_RATE_LIMIT_DURATION: '60' });
  });
  afterAll(() => app.stop());

  it('answers 429 past GLOBAL_API_RATE_LIMIT requests per IP on /api', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await app.http.get('/api/status')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
