import { DataSource } from 'typeorm';
import { registerUser, type Session } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { testSql, type TestApp } from './support/test-app';

describe('GET /api/channel/test_upstream/{id}: the groups and clients that reach an upstream', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let bob: Session;

  beforeAll(async () => {
    ({ app, upstream, seed, root } = await startRelayTestbed());
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');
    await seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    await seed.setOption('ModelRatio', JSON.stringify({ 'gpt-test': 1 }));
    await seed.setUserQuota(alice.id, 100_000_000);
    await seed.setUserQuota(bob.id, 100_000_000, { group: 'vip' });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('lists each group with the client APIs it came through, their counts and first and last sightings', async () => {
    const watched = await seed.createChannel({ name: 'watched', base_url: upstream.url, models: 'gpt-test', group: 'default,vip,svip', priority: 10 });
    const other = await seed.createChannel({ name: 'other', base_url: upstream.url, models: 'gpt-test', group: 'default' });
    const aliceKey = (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey;
    const bobKey = (await seed.createToken(bob.id, { unlimited_quota: true })).apiKey;
    const chat = (apiKey: string) => openaiClient(app, apiKey).chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    const claude = (apiKey: string) =>
      app.http.post('/v1/messages').set('x-api-key', apiKey).send({ model: 'gpt-test', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).expect(200);
    await chat(aliceKey);
    await chat(aliceKey);
    await claude(aliceKey);
    await chat(bobKey);
    await seed.flush();

    // Rows of another channel, and rows older than the 30-day window, are not this upstream's recent traffic.
    const db = app.app.get(DataSource);
    const group = db.driver.escape('group');
    const insertLog = (channelId: number, createdAt: number, groupName: string) =>
      db.query(testSql(`INSERT INTO logs (user_id, created_at, type, username, model_name, quota, channel_id, ${group}, other) VALUES (?, ?, 2, 'alice', 'gpt-test', 1, ?, ?, '{"request_path":"/chat/completions"}')`), [alice.id, createdAt, channelId, groupName]);
    const now = Math.floor(Date.now() / 1000);
    await insertLog(watched, now - 40 * 86_400, 'old');
    await insertLog(other, now, 'elsewhere');
    const [seen] = await db.query(testSql(`SELECT MIN(created_at) AS first, MAX(created_at) AS last FROM logs WHERE channel_id = ? AND ${group} = 'default'`), [watched]);

    const answer = await root.get(`/api/channel/test_upstream/${watched}`).expect(200);
    expect(answer.body.success).toBe(true);
    const groups = answer.body.data as Array<{ group: string; first_seen: number; last_seen: number; client_types: Array<{ client_type: string; count: number; first_seen: number; last_seen: number }> }>;
    expect(groups.map((group) => group.group).sort()).toEqual(['default', 'svip', 'vip']);
    const byName = Object.fromEntries(groups.map((group) => [group.group, group]));
    expect(byName.default).toMatchObject({ first_seen: Number(seen.first), last_seen: Number(seen.last) });
    expect(byName.default.client_types).toEqual([
      { client_type: 'openai', count: 2, first_seen: expect.any(Number), last_seen: expect.any(Number) },
      { client_type: 'claude', count: 1, first_seen: expect.any(Number), last_seen: expect.any(Number) },
    ]);
    expect(byName.vip.client_types).toEqual([{ client_type: 'openai', count: 1, first_seen: expect.any(Number), last_seen: expect.any(Number) }]);
    // Configured but silent: listed, never seen.
    expect(byName.svip).toEqual({ group: 'svip', first_seen: 0, last_seen: 0, client_types: [] });
  });

  it('is for admins only, and answers clearly for an unknown or malformed id', async () => {
    const channel = await seed.createChannel({ base_url: upstream.url, models: 'gpt-test' });
    expect((await alice.get(`/api/channel/test_upstream/${channel}`)).body.success).toBe(false);
    const missing = await root.get('/api/channel/test_upstream/999999').set('Accept-Language', 'en').expect(200);
    expect(missing.body).toMatchObject({ success: false, message: 'Channel not found, refresh and retry' });
    const malformed = await root.get('/api/channel/test_upstream/abc').set('Accept-Language', 'en').expect(200);
    expect(malformed.body).toMatchObject({ success: false, message: 'Invalid id' });
  });
});
