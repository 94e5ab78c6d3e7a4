import OpenAI, { APIError } from 'openai';
import { OutboundGuardService } from '../src/modules/outbound/outbound-guard.service';
import { createAdmin, registerUser, setupRoot, type Session } from './support/accounts';
import { connectionCounter } from './support/connection-counter';
import { MOCK_REPLY_TEXT, MockUpstream } from './support/mock-upstream';
import { serviceAccountKey } from './support/mock-vertex';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

describe('outbound guard (SSRF)', () => {
  let app: TestApp;
  let seed: RelaySeed;
  let root: Session;
  let admin: Session;
  let client: OpenAI;
  let trap: Awaited<ReturnType<typeof connectionCounter>>;
  let upstream: MockUpstream;
  const chat = () => client.chat.completions.create({ model: 'guard-model', messages: [{ role: 'user', content: 'x' }] });

  beforeAll(async () => {
    trap = await connectionCounter();
    upstream = await new MockUpstream().start();
    app = await startTestApp({}, { allowPrivateOutbound: false });
    // Names the tests use resolve here, in the process: no DNS query leaves the machine.
    const records: Record<string, string> = { 'inside.example.test': '127.0.0.1', 'llm.example.test': '127.0.0.1' };
    app.app.get(OutboundGuardService).resolver = async (host) => {
      if (!records[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return [{ address: records[host], family: 4 }];
    };
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'admin1');
    const alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'guard-model': 1 }));
    await seed.setUserQuota(alice.id, 100_000_000);
    client = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await trap.stop();
    await upstream.stop();
  });
  beforeEach(async () => {
    await seed.deleteAllChannels();
    await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'false' });
  });

  const saveChannel = (session: Session, baseUrl: string) =>
    session.post('/api/channel/', { name: 'c', type: 1, key: 'sk-guard', base_url: baseUrl, models: 'guard-model' }).set('Accept-Language', 'en');

  it('refuses metadata, loopback tricks, private ranges and service ports when a channel is saved', async () => {
    const refused = [
      'http://169.254.169.254',
      'http://metadata.google.internal',
      'http://[::1]:8080',
      'http://2130706433',
      'http://0x7f000001',
      'http://10.0.0.1',
      'http://100.64.0.1',
      `http://inside.example.test:${trap.port}`,
      'http://api.example.com:6379',
      'http://api.example.com:22',
      'http://127.0.0.1:3306',
      'http://127.0.0.1:11211',
      'gopher://127.0.0.1',
    ];
    for (const url of refused) {
      const answer = await saveChannel(admin, url);
      expect([url, answer.body.success]).toEqual([url, false]);
    }
    const privateAnswer = await saveChannel(admin, 'http://10.0.0.1');
    expect(privateAnswer.body.message).toContain('fetch_setting.allow_private_ip');
    expect((await saveChannel(root, 'http://example.com/%0d%0aX-Injected:%201')).body.success).toBe(false);
    expect((await saveChannel(root, 'http://user:pw@example.com')).body.success).toBe(false);
    expect((await admin.get('/api/channel/?p=1')).body.data.total).toBe(0);
    expect(trap.connections()).toBe(0);
  });

  it('refuses before connecting when a stored channel points to loopback: relay, channel test and model list', async () => {
    // A row saved before the guard existed (or while root allowed private networks).
    const literal = await seed.createChannel({ base_url: `http://127.0.0.1:${trap.port}`, models: 'guard-model', priority: 1 });
    const byName = await seed.createChannel({ base_url: `http://inside.example.test:${trap.port}`, models: 'guard-model', priority: 0 });
    const error = await chat().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(502);
    for (const id of [literal, byName]) {
      const probe = await admin.get(`/api/channel/test/${id}`).set('Accept-Language', 'en');
      expect(probe.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
      const models = await admin.get(`/api/channel/fetch_models/${id}`).set('Accept-Language', 'en');
      expect(models.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
    }
    expect(trap.connections()).toBe(0);
  });

  it('guards the native providers too: channel tests, model lists and the Vertex token exchange', async () => {
    const base = `http://127.0.0.1:${trap.port}`;
    const listing = [
      await seed.createChannel({ type: 14, base_url: base, models: 'guard-model', key: 'sk-ant-guard' }),
      await seed.createChannel({ type: 24, base_url: base, models: 'guard-model', key: 'AIza-guard' }),
    ];
    const knownLists = [
      await seed.createChannel({ type: 33, base_url: base, models: 'guard-model', key: 'AKIA|secret|us-east-1' }),
      // The token endpoint is the first address a Vertex channel dials.
      await seed.createChannel({ type: 41, base_url: 'https://vertex.example.test', models: 'guard-model', key: serviceAccountKey(`${base}/token`) }),
    ];
    for (const id of [...listing, ...knownLists]) {
      const probe = await admin.get(`/api/channel/test/${id}`).set('Accept-Language', 'en');
      expect(probe.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
    }
    for (const id of listing) {
      const models = await admin.get(`/api/channel/fetch_models/${id}`).set('Accept-Language', 'en');
      expect(models.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
    }
    // Bedrock and Vertex have no list to fetch: their known lists dial nothing.
    for (const id of knownLists) expect((await admin.get(`/api/channel/fetch_models/${id}`)).body.success).toBe(true);
    expect(trap.connections()).toBe(0);
  });

  it('fetch_models with an arbitrary base URL is root only, and guarded for root too', async () => {
    const body = { type: 1, key: 'sk-guard', base_url: `http://127.0.0.1:${trap.port}` };
    expect((await admin.post('/api/channel/fetch_models', body)).status).toBe(403);
    const answer = await root.post('/api/channel/fetch_models', body).set('Accept-Language', 'en');
    expect(answer.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
    expect(trap.connections()).toBe(0);
  });

  it('only root allows private networks, and then the connection goes to the address the guard validated', async () => {
    expect((await admin.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).body.success).toBe(false);
    expect((await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).body.success).toBe(true);
    const port = new URL(upstream.url).port;
    // llm.example.test exists only in the guard's resolver: reaching the mock proves the socket dialled the validated address.
    expect((await saveChannel(admin, `http://llm.example.test:${port}`)).body.success).toBe(true);
    const answer = await chat();
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    // Metadata stays refused whatever root allows.
    expect((await saveChannel(root, 'http://169.254.169.254')).body.success).toBe(false);
  });
});
