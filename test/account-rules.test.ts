import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createAdmin, login, registerUser, setupRoot, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

describe('account rules, input limits and secrets in answers', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let seed: RelaySeed;

  beforeAll(async () => {
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'admin1');
  });
  afterAll(() => app.stop());

  it("lets only root change an admin's quota or group, the admin's own included", async () => {
    const before = (await root.get(`/api/user/${admin.id}`)).body.data;
    const selfRaise = await admin.put('/api/user/', { id: admin.id, quota: before.quota + 1_000_000 }).set('Accept-Language', 'en');
    expect(selfRaise.body).toMatchObject({ success: false, message: "Only the root user can change an administrator's quota, group or role" });
    await seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1 }));
    expect((await admin.put('/api/user/', { id: admin.id, group: 'vip' })).body.success).toBe(false);
    // Unchanged values and other fields of its own account stay editable.
    expect((await admin.put('/api/user/', { id: admin.id, quota: before.quota, group: before.group, display_name: 'Ad Min' })).body.success).toBe(true);
    const after = (await root.get(`/api/user/${admin.id}`)).body.data;
    expect(after).toMatchObject({ quota: before.quota, group: before.group, display_name: 'Ad Min' });
    // Root may, and an admin still manages ordinary users' quota.
    expect((await root.put('/api/user/', { id: admin.id, quota: before.quota + 5, group: 'vip' })).body.success).toBe(true);
    const user = await registerUser(app, 'plain1');
    expect((await admin.put('/api/user/', { id: user.id, quota: 42 })).body.success).toBe(true);
  });

  it('needs the current password to set a new one', async () => {
    const user = await registerUser(app, 'pwuser');
    const missing = await user.put('/api/user/self', { password: 'new-pass-33' }).set('Accept-Language', 'en');
    expect(missing.body).toMatchObject({ success: false, message: 'Please enter your current password' });
    expect((await user.put('/api/user/self', { password: 'new-pass-33', original_password: 'wrong-pass' })).body.success).toBe(false);
    expect((await user.put('/api/user/self', { password: 'new-pass-33', original_password: 'user-pass-1' })).body.success).toBe(true);
    await login(app, 'pwuser', 'new-pass-33');
  });

  it('refuses invisible characters in usernames and case-variants of a taken one', async () => {
    for (const username of ['bell\u0007', 'nul\u0000x', 'esc\u001b[1m', 'zero\u200bw', 'bidi\u202eab', 'nbsp\u00a0x', 'root\ufe0f', 'cgj\u034fx', 'fill\u3164x', 'fill\u115fx']) {
      const answer = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username, password: 'abcdefgh' });
      expect([JSON.stringify(username), answer.body.success]).toEqual([JSON.stringify(username), false]);
    }
    for (const username of ['ROOT', 'Root', 'ADMIN1']) {
      const answer = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username, password: 'abcdefgh' });
      expect(answer.body).toMatchObject({ success: false, message: 'The username is already taken, or belonged to a deleted account' });
    }
    expect((await root.post('/api/user/', { username: 'PlAiN1', password: 'abcdefgh' })).body.success).toBe(false);
    expect((await app.http.post('/api/user/register').send({ username: 'Ünïcødé', password: 'abcdefgh' })).body.success).toBe(true);
  });

  it('keeps usernames unique regardless of case in the database itself, the guard behind the check when two sign-ups race', async () => {
    const users = app.app.get(DataSource).createQueryBuilder().insert().into('users');
    await users.values({ username: 'racer', aff_code: 'race01' }).execute();
    await expect(users.values({ username: 'RACER', aff_code: 'race02' }).execute()).rejects.toThrow();
    await users.values({ username: 'racer2', aff_code: 'race03' }).execute();
  });

  it('answers JSON nested 500,000 deep with a 400 in the envelope', async () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    const answer = await app.http.post('/api/user/login').set('Content-Type', 'application/json').set('Accept-Language', 'en').send(`{"username":${deep},"password":"x"}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: 'The JSON request body is nested too deeply', data: null });
    // Brackets inside strings are text, not nesting.
    const inString = await app.http.post('/api/user/login').send({ username: '['.repeat(100), password: 'abcdefgh' });
    expect(inString.status).toBe(200);
  });

  it("never shows a user's webhook secret to admins, only to its owner", async () => {
    const user = await registerUser(app, 'hooked');
    const saved = await user.put('/api/user/setting', { notify_type: 'webhook', webhook_url: 'https://hooks.example.com/x', webhook_secret: 'whsec-very-private' });
    expect(saved.body.success).toBe(true);
    expect((await user.get('/api/user/self')).body.data.setting).toContain('whsec-very-private');
    const asAdmin = [await admin.get(`/api/user/${user.id}`), await root.get(`/api/user/${user.id}`), await admin.get('/api/user/?p=1&page_size=100'), await admin.get('/api/user/search?keyword=hooked')];
    for (const answer of asAdmin) {
      expect(answer.body.success).toBe(true);
      expect(JSON.stringify(answer.body)).not.toContain('whsec-very-private');
    }
    expect(JSON.parse((await admin.get(`/api/user/${user.id}`)).body.data.setting)).toMatchObject({ notify_type: 'webhook', webhook_url: 'https://hooks.example.com/x' });
  });

  it('scrubs the channel key from an upstream 401 before it is stored, logged or shown', async () => {
    const upstream = await new MockUpstream().start();
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    try {
      const key = 'sk-live-0123456789abcdefSECRET';
      const channel = await seed.createChannel({ key, base_url: upstream.url, models: 'scrub-model', auto_ban: 1 });
      await seed.setOption('AutomaticDisableChannelEnabled', true);
      await seed.setOption('ModelRatio', JSON.stringify({ 'scrub-model': 1 }));
      upstream.handler = (request) => ({
        status: 401,
        json: { error: { message: `Incorrect API key provided: ${String(request.headers.authorization).slice(7)}. Sent as Authorization: ${request.headers.authorization}` } },
      });
      const user = await registerUser(app, 'scrubber');
      await seed.setUserQuota(user.id, 10_000_000);
      const client = openaiClient(app, (await seed.createToken(user.id)).apiKey);
      await client.chat.completions.create({ model: 'scrub-model', messages: [{ role: 'user', content: 'x' }] }).catch(() => undefined);
      expect(await seed.channelStatusEventually(channel, 3)).toBe(3);
      const stored = await seed.channel(channel);
      expect(stored.other_info).toContain('Incorrect API key provided');
      const shown = await admin.get(`/api/channel/${channel}`);
      const logged = warnings.mock.calls.map((call) => String(call[0])).join('\n');
      expect(logged).toContain(`channel ${channel}`);
      for (const text of [stored.other_info ?? '', JSON.stringify(shown.body), logged]) {
        expect(text).not.toContain('0123456789abcdefSECRET');
      }
    } finally {
      warnings.mockRestore();
      await upstream.stop();
    }
  });
});
