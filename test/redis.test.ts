import { login, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Two instances sharing one database and one Redis, as an operator runs them behind a load
 * balancer: sessions, option changes and rate limits are shared. Runs when TEST_REDIS_URL is set.
 */
(redisUrl ? describe : describe.skip)('several instances with Redis', () => {
  let first: TestApp;
  let second: TestApp;
  let root: Session;

  beforeAll(async () => {
    const redis = `${redisUrl!.replace(/\/\d*$/, '')}/${1 + Math.floor(Math.random() * 14)}`;
    const { default: Redis } = await import('ioredis');
    const client = new Redis(redis);
    await client.flushdb();
    await client.quit();
    first = await startTestApp({ REDIS_CONN_STRING: redis, CRITICAL_RATE_LIMIT: '6' });
    const shared: Record<string, string> = first.config.database.type === 'mysql' ? { SQL_DSN: first.config.database.mysqlUrl } : { SQLITE_PATH: first.config.database.sqlitePath };
    second = await startTestApp({ ...shared, REDIS_CONN_STRING: redis, CRITICAL_RATE_LIMIT: '6' });
    root = await setupRoot(first);
  });
  afterAll(async () => {
    await second.app.close();
    second.server.close();
    await first.stop();
  });

  const onSecond = (session: Session, path: string) => second.http.get(path).set('Cookie', session.cookie).set('New-Api-User', String(session.id));

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
