import type { SessionView } from '../src/modules/sessions/sessions.wire';
import { ROOT_PASSWORD, ROOT_USERNAME, sessionFor, setupRoot, type Session } from './support/accounts';
import { BrowserSession } from './support/browser-session';
import { startInstancesOnRedis, type InstancePair } from './support/redis-instances';
import { startTestApp, TestApp } from './support/test-app';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** Signs in with a password from a browser that names itself with `userAgent`. */
async function signIn(app: TestApp, username: string, password: string, userAgent: string): Promise<Session> {
  const response = await app.http.post('/api/user/login').set('User-Agent', userAgent).send({ username, password });
  if (!response.body.success) throw new Error(`login failed: ${response.body.message}`);
  const cookie = (response.headers['set-cookie'] as unknown as string[]).map((value) => value.split(';')[0]).join('; ');
  return sessionFor(app, response.body.data.id, username, cookie);
}

async function listSessions(session: Session): Promise<SessionView[]> {
  const response = await session.get('/api/user/sessions');
  expect(response.body.success).toBe(true);
  return response.body.data as SessionView[];
}

describe('sessions a user can see and revoke', () => {
  let app: TestApp;
  let root: Session;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    expect((await app.http.post('/api/user/register').send({ username: 'sessalice', password: 'alice-pass-1', password2: 'alice-pass-1' })).body.success).toBe(true);
  });
  afterAll(async () => {
    await app.stop();
  });

  // Session calls carry no Accept-Language, so messages are in Chinese, the default.
  it('lists each signed-in browser with its device, address and last-seen time, and revokes one or all others', async () => {
    const phone = await signIn(app, 'sessalice', 'alice-pass-1', IPHONE_SAFARI);
    const desktop = await signIn(app, 'sessalice', 'alice-pass-1', WINDOWS_CHROME);
    const laptop = await signIn(app, 'sessalice', 'alice-pass-1', WINDOWS_CHROME);

    const listed = await listSessions(phone);
    expect(listed).toHaveLength(3);
    const mine = listed.find((session) => session.current)!;
    expect(mine).toMatchObject({ browser: 'Mobile Safari 17', os: 'iOS 17.0', device_type: 'mobile' });
    expect(mine.ip).toMatch(/127\.0\.0\.1$/);
    expect(mine.last_seen).toBeGreaterThanOrEqual(mine.created_time);
    expect(listed.filter((session) => !session.current).map((session) => [session.browser, session.os, session.device_type])).toEqual([
      ['Chrome 120', 'Windows 10', 'desktop'],
      ['Chrome 120', 'Windows 10', 'desktop'],
    ]);
    // The list never carries the cookie's secret.
    expect(JSON.stringify(listed)).not.toContain(phone.cookie.split('=')[1].split('.')[0]);

    const desktopId = (await listSessions(desktop)).find((session) => session.current)!.id;
    expect((await phone.delete(`/api/user/sessions/${desktopId}`)).body).toMatchObject({ success: true, message: '已退出该设备' });
    expect((await desktop.get('/api/user/self')).status).toBe(401);
    expect(await listSessions(phone)).toHaveLength(2);

    // Someone else's session is not yours to end.
    const rootSessionId = (await listSessions(root)).find((session) => session.current)!.id;
    expect((await phone.delete(`/api/user/sessions/${rootSessionId}`)).body).toMatchObject({ success: false, message: '会话不存在或已结束' });
    expect((await root.get('/api/user/self')).body.success).toBe(true);

    expect((await phone.delete('/api/user/sessions')).body).toMatchObject({ success: true, message: '已退出其他所有设备' });
    expect((await laptop.get('/api/user/self')).status).toBe(401);
    expect((await listSessions(phone)).map((session) => session.current)).toEqual([true]);
  });

  it('ends the other sessions on a password change, and all of them when the user is disabled', async () => {
    const phone = await signIn(app, 'sessalice', 'alice-pass-1', IPHONE_SAFARI);
    const desktop = await signIn(app, 'sessalice', 'alice-pass-1', WINDOWS_CHROME);
    expect((await phone.put('/api/user/self', { password: 'alice-pass-2', original_password: 'alice-pass-1' })).body.success).toBe(true);
    expect((await desktop.get('/api/user/self')).status).toBe(401);
    expect((await listSessions(phone)).length).toBe(1);

    const again = await signIn(app, 'sessalice', 'alice-pass-2', WINDOWS_CHROME);
    expect((await root.post('/api/user/manage', { id: again.id, action: 'disable' })).body.success).toBe(true);
    expect((await phone.get('/api/user/self')).status).toBe(401);
    expect((await again.get('/api/user/self')).status).toBe(401);
    expect((await root.post('/api/user/manage', { id: again.id, action: 'enable' })).body.success).toBe(true);
    expect(await listSessions(await signIn(app, 'sessalice', 'alice-pass-2', WINDOWS_CHROME))).toHaveLength(1);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('sessions across two instances on Redis', () => {
  let pair: InstancePair;

  beforeAll(async () => {
    pair = await startInstancesOnRedis(redisUrl!);
    const browser = new BrowserSession(pair.first);
    expect((await browser.post('/api/setup', { username: ROOT_USERNAME, password: ROOT_PASSWORD, confirmPassword: ROOT_PASSWORD })).body.success).toBe(true);
  });
  afterAll(async () => {
    await pair.stop();
  });

  it('lists on one instance what was signed in on the other, and a revoke on one ends the session on both', async () => {
    const onFirst = await signIn(pair.first, ROOT_USERNAME, ROOT_PASSWORD, IPHONE_SAFARI);
    const onSecond = await signIn(pair.second, ROOT_USERNAME, ROOT_PASSWORD, WINDOWS_CHROME);
    const seenFromSecond = await listSessions(onSecond);
    expect(seenFromSecond.map((session) => [session.browser, session.current]).sort()).toEqual([
      ['Chrome 120', true],
      ['Mobile Safari 17', false],
    ]);

    const phoneId = seenFromSecond.find((session) => !session.current)!.id;
    expect((await onSecond.delete(`/api/user/sessions/${phoneId}`)).body.success).toBe(true);
    expect((await onFirst.get('/api/user/self')).status).toBe(401);
    // The cookie is refused on the instance that did not revoke it as well.
    expect((await pair.second.http.get('/api/user/self').set('Cookie', onFirst.cookie).set('New-Api-User', String(onFirst.id))).status).toBe(401);

    const another = await signIn(pair.first, ROOT_USERNAME, ROOT_PASSWORD, IPHONE_SAFARI);
    expect((await onSecond.delete('/api/user/sessions')).body.success).toBe(true);
    expect((await another.get('/api/user/self')).status).toBe(401);
    expect((await listSessions(onSecond)).map((session) => session.current)).toEqual([true]);
  });
});
