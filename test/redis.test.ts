import { DataSource } from 'typeorm';
import { login, Session, setupRoot } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { InstancePair, startInstancesOnRedis } from './support/redis-instances';
import { startSmtpInbox } from './support/smtp-inbox';
import { testSql, type TestApp } from './support/test-app';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two instances sharing one database and one Redis, as an operator runs them behind a load
 * balancer: sessions, option changes and rate limits are shared. Runs when TEST_REDIS_URL is set.
 */
(redisUrl ? describe : describe.skip)('several instances with Redis', () => {
  let pair: InstancePair;
  let first: TestApp;
  let second: TestApp;
  let root: Session;

  beforeAll(async () => {
    pair = await startInstancesOnRedis(redisUrl!, { CRITICAL_RATE_LIMIT: '6' });
    ({ first, second } = pair);
    root = await setupRoot(first);
  });
  afterAll(() => pair.stop());

  const onSecond = (session: Session, path: string) => second.http.get(path).set('Cookie', session.cookie).set('New-Api-User', String(session.id));

  it('invalidates a cached API key on every instance, naming it by its hash: no key in the clear crosses Redis', async () => {
    const { default: Redis } = await import('ioredis');
    const listener = new Redis(first.config.redisUrl!);
    const messages: string[] = [];
    await listener.subscribe('gateway:cache-invalidate');
    listener.on('message', (_channel: string, message: string) => messages.push(message));
    try {
      const [token] = (await root.post('/api/token/', { name: 'shared', unlimited_quota: true, expired_time: -1 })).body.data as Array<{ id: number; key: string }>;
      const models = () => second.http.get('/v1/models').set('Authorization', `Bearer ${token.key}`);
      expect((await models()).status).toBe(200);
      expect((await root.put('/api/token/?status_only=true', { id: token.id, status: 2 })).body.success).toBe(true);
      let status = (await models()).status;
      for (let attempt = 0; attempt < 40 && status === 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await models()).status;
      }
      expect(status).not.toBe(200);
      expect(messages.some((message) => message.includes('"tokens"'))).toBe(true);
      expect(messages.join('\n')).not.toContain(token.key.slice(3));
    } finally {
      await listener.quit();
    }
  });

  it('shares sessions: signed in on one instance, recognised on the other, signed out on both', async () => {
    const session = await login(first, 'root', 'root-pass-1');
    expect((await onSecond(session, '/api/user/self')).status).toBe(200);
    await session.get('/api/user/logout');
    expect((await onSecond(session, '/api/user/self')).status).toBe(401);
  });

  it('spreads an option change to the other instance without a restart', async () => {
    expect((await root.put('/api/option/', { key: 'SystemName', value: 'Shared Name' })).body.success).toBe(true);
    let name = '';
    for (let attempt = 0; attempt < 50 && name !== 'Shared Name'; attempt++) {
      name = (await second.http.get('/api/status')).body.data.system_name;
      if (name !== 'Shared Name') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(name).toBe('Shared Name');
  });

  it('knows about a setup run on the other instance', async () => {
    expect((await second.http.get('/api/setup')).body.data.status).toBe(true);
  });

  it('sends a quota alert once across instances: the 2-hour window lives in Redis', async () => {
    const inbox = await startSmtpInbox({ user: 'mailer@example.test', pass: 'smtp-token' });
    const upstream = await new MockUpstream().start();
    try {
      const seeds = [new RelaySeed(first), new RelaySeed(second)];
      const settings = { SMTPServer: '127.0.0.1', SMTPPort: inbox.port, SMTPAccount: 'mailer@example.test', SMTPToken: 'smtp-token', SMTPFrom: 'noreply@example.test', ModelRatio: JSON.stringify({ 'alert-model': 1000 }) };
      for (const seed of seeds) for (const [key, value] of Object.entries(settings)) await seed.setOption(key, value);
      await seeds[0].createChannel({ base_url: upstream.url, models: 'alert-model' });
      // Each call costs 19,000 quota: two take the user below the threshold, the third is below it already.
      const threshold = 1_000_000;
      // Made by root (signing up and in would spend the critical rate limit the next test counts).
      expect((await root.post('/api/user/', { username: 'alerted', password: 'user-pass-1' })).body.success).toBe(true);
      const [{ id: userId }] = await first.app.get(DataSource).query(testSql('SELECT id FROM users WHERE username = ?'), ['alerted']);
      const setting = JSON.stringify({ notify_type: 'email', quota_warning_threshold: threshold, notification_email: 'alerted@example.test' });
      await seeds[0].setUserQuota(Number(userId), threshold + 20_000, { setting });
      const apiKey = (await seeds[0].createToken(Number(userId), { unlimited_quota: true })).apiKey;
      const chat = (app: TestApp) => openaiClient(app, apiKey).chat.completions.create({ model: 'alert-model', messages: [{ role: 'user', content: 'hi' }] });

      const mail = inbox.next('alerted@example.test');
      for (let call = 0; call < 2; call++) {
        await chat(first);
        await seeds[0].flush();
      }
      expect((await mail).subject).toBe('您的额度即将用尽');
      await chat(second);
      await seeds[1].flush();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(inbox.mails.filter((received) => received.to.includes('alerted@example.test'))).toHaveLength(1);
    } finally {
      await upstream.stop();
      await inbox.stop();
    }
  });

  it('counts the critical rate limit across instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await first.http.post('/api/user/login').send({ username: 'x', password: 'yyyyyyyy' })).status);
      statuses.push((await second.http.post('/api/user/login').send({ username: 'x', password: 'yyyyyyyy' })).status);
    }
    // setupRoot and the login above used two of the six; four more and the rest are refused on both instances.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
  });

});
