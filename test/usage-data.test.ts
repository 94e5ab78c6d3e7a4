import OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { UsageAggregatorService } from '../src/modules/data/usage-aggregator.service';
import { registerUser, type Session } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import type { TestApp } from './support/test-app';
import { testSql } from './support/test-app';

interface Sums {
  count: number;
  quota: number;
  tokens: number;
}

describe('usage aggregation into quota_data and GET /api/data', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let bob: Session;
  let aggregator: UsageAggregatorService;

  const chat = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  const settleAndAggregate = async () => {
    await seed.flush();
    await aggregator.flush();
  };

  beforeAll(async () => {
    ({ app, upstream, seed, root } = await startRelayTestbed());
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');
    aggregator = app.app.get(UsageAggregatorService);
    await seed.setOption('ModelRatio', JSON.stringify({ 'model-a': 1, 'model-b': 2.5 }));
    await seed.setOption('DataExportEnabled', true);
    await seed.createChannel({ base_url: upstream.url, models: 'model-a,model-b' });
    for (const user of [alice, bob]) await seed.setUserQuota(user.id, 100_000_000);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('sums in quota_data equal the consume logs of the same window, per user and model', async () => {
    const aliceClient = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
    const bobClient = openaiClient(app, (await seed.createToken(bob.id, { unlimited_quota: true })).apiKey);
    await Promise.all([chat(aliceClient, 'model-a'), chat(aliceClient, 'model-a'), chat(aliceClient, 'model-b'), chat(bobClient, 'model-b')]);
    await settleAndAggregate();
    await Promise.all([chat(aliceClient, 'model-a'), chat(bobClient, 'model-a')]);
    await settleAndAggregate();

    const db = app.app.get(DataSource);
    const fromLogs = new Map<string, Sums>();
    for (const row of await db.query('SELECT user_id, model_name, COUNT(*) AS n, SUM(quota) AS quota, SUM(prompt_tokens + completion_tokens) AS tokens FROM logs WHERE type = 2 GROUP BY user_id, model_name')) {
      fromLogs.set(`${row.user_id}/${row.model_name}`, { count: Number(row.n), quota: Number(row.quota), tokens: Number(row.tokens) });
    }
    const fromData = new Map<string, Sums>();
    for (const row of await db.query('SELECT user_id, model_name, SUM(count) AS n, SUM(quota) AS quota, SUM(token_used) AS tokens FROM quota_data WHERE user_id > 0 GROUP BY user_id, model_name')) {
      fromData.set(`${row.user_id}/${row.model_name}`, { count: Number(row.n), quota: Number(row.quota), tokens: Number(row.tokens) });
    }
    expect(fromData).toEqual(fromLogs);
    expect(fromData.get(`${alice.id}/model-a`)).toMatchObject({ count: 3 });
    // The all-users buckets (user id 0) hold the same sums per model.
    const [allUsers] = await db.query('SELECT SUM(count) AS n, SUM(quota) AS quota FROM quota_data WHERE user_id = 0');
    const [allLogs] = await db.query('SELECT COUNT(*) AS n, SUM(quota) AS quota FROM logs WHERE type = 2');
    expect([Number(allUsers.n), Number(allUsers.quota)]).toEqual([Number(allLogs.n), Number(allLogs.quota)]);
    // Two flushes added to the same hour bucket rather than writing a second row.
    const [{ bucket_rows: rows }] = await db.query(testSql('SELECT COUNT(*) AS bucket_rows FROM quota_data WHERE user_id = ? AND model_name = ?'), [alice.id, 'model-a']);
    expect(Number(rows)).toBe(1);
  });

  it('serves each user their own usage, and admins anyone’s or everyone’s, by hour, day or week', async () => {
    const own = await alice.get('/api/data/self/');
    expect(own.body.success).toBe(true);
    expect(own.body.data.every((row: { user_id: number }) => row.user_id === alice.id)).toBe(true);
    expect(own.body.data.find((row: { model_name: string }) => row.model_name === 'model-a')).toMatchObject({ count: 3, username: 'alice' });

    const forbidden = await alice.get('/api/data/');
    expect(forbidden.body.success).toBe(false);

    const bobs = await root.get('/api/data/').query({ username: 'bob' });
    expect(bobs.body.data.map((row: { model_name: string; count: number }) => [row.model_name, row.count])).toEqual([
      ['model-a', 1],
      ['model-b', 1],
    ]);

    const everyone = await root.get('/api/data/').query({ granularity: 'week' });
    const total = (rows: { count: number }[]) => rows.reduce((sum, row) => sum + row.count, 0);
    expect(total(everyone.body.data)).toBe(6);
    expect(everyone.body.data.every((row: { created_at: number }) => (row.created_at - 4 * 86_400) % (7 * 86_400) === 0)).toBe(true);
    const daily = await root.get('/api/data/').query({ granularity: 'day', start_timestamp: 0, end_timestamp: Math.floor(Date.now() / 1000) + 60 });
    expect(daily.body).toMatchObject({ success: false });
  });

  it('refuses a bad window or granularity with a clear message', async () => {
    const now = Math.floor(Date.now() / 1000);
    const reversed = await root.get('/api/data/').query({ start_timestamp: now, end_timestamp: now - 10 }).set('Accept-Language', 'en');
    expect(reversed.body).toMatchObject({ success: false, message: 'The start time must not be after the end time' });
    const granularity = await root.get('/api/data/').query({ granularity: 'month' }).set('Accept-Language', 'en');
    expect(granularity.body).toMatchObject({ success: false, message: 'Granularity must be hour, day or week' });
  });

  it('aggregates nothing while DataExportEnabled is off', async () => {
    await seed.setOption('DataExportEnabled', false);
    const client = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
    const before = (await alice.get('/api/data/self/')).body.data;
    await chat(client, 'model-a');
    await settleAndAggregate();
    expect((await alice.get('/api/data/self/')).body.data).toEqual(before);
  });
});
