import { registerUser, setupRoot } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

/** The app sits behind one reverse proxy (the test client on loopback plays it): TRUST_PROXY=1. */
describe('TRUST_PROXY: the client is the right-most untrusted address', () => {
  let app: TestApp;
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    app = await startTestApp({ TRUST_PROXY: '1', CRITICAL_RATE_LIMIT: '5', CRITICAL_RATE_LIMIT_DURATION: '60' });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('counts wrong logins per real client, whatever it puts in X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      // The client forges a left-most entry; the proxy appends the address it saw.
      const answer = await app.http.post('/api/user/login').set('X-Forwarded-For', `10.0.${attempt}.1, 198.51.100.7`).send({ username: 'nobody', password: 'wrong-pass' });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const other = await app.http.post('/api/user/login').set('X-Forwarded-For', '198.51.100.8').send({ username: 'nobody', password: 'wrong-pass' });
    expect(other.status).toBe(200);
  });

  it("judges a token's allow_ips by the address the proxy saw", async () => {
    const seed = new RelaySeed(app);
    await setupRoot(app);
    const alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'ip-model': 1 }));
    await seed.setUserQuota(alice.id, 10_000_000);
    await seed.createChannel({ base_url: upstream.url, models: 'ip-model' });
    const token = await seed.createToken(alice.id, { allow_ips: '203.0.113.5' });
    const call = (forwarded: string) =>
      app.http.post('/v1/chat/completions').set('Authorization', `Bearer ${token.apiKey}`).set('X-Forwarded-For', forwarded).send({ model: 'ip-model', messages: [{ role: 'user', content: 'x' }] });
    expect((await call('203.0.113.5, 198.51.100.7')).status).toBe(403);
    expect((await call('198.51.100.7, 203.0.113.5')).status).toBe(200);
  });
});
