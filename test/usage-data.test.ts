import OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { QuotaDataDaily1795760000000 } from '../migrations/1795760000000-quota-data-daily';
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

const HOUR = 3600;
const DAY = 86_400;

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
    // The daily buckets hold the same sums, per user (everyone's too) and model, each in the day of its hours.
    const sumsBy = async (sql: string) => (await db.query(sql)).map((row: Record<string, unknown>) => [row.user_id, row.model_name, Number(row.n), Number(row.quota), Number(row.tokens)].join('/')).sort();
    const perUserAndModel = (table: string) => `SELECT user_id, model_name, SUM(count) AS n, SUM(quota) AS quota, SUM(token_used) AS tokens FROM ${table} GROUP BY user_id, model_name`;
    expect(await sumsBy(perUserAndModel('quota_data_daily'))).toEqual(await sumsBy(perUserAndModel('quota_data')));
    const [{ off }] = await db.query(`SELECT COUNT(*) AS off FROM quota_data_daily WHERE created_at % ${DAY} <> 0`);
    expect(Number(off)).toBe(0);
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

  describe('a window cut inside days', () => {
    const carolId = 990_001;
    /** Three days ago at midnight (UTC): carol's buckets run 14:00 on day 0 to 08:00 on day 2. */
    const day0 = Math.floor(Date.now() / 1000 / DAY) * DAY - 3 * DAY;
    const hours = Array.from({ length: 43 }, (_, i) => day0 + 14 * HOUR + i * HOUR);
    const db = () => app.app.get(DataSource);

    beforeAll(async () => {
      // As the aggregator writes them: every hour's bucket, and each day's sum of its hours.
      const insert = (table: string) => testSql(`INSERT INTO ${table} (user_id, username, model_name, created_at, token_used, count, quota) VALUES (?, ?, ?, ?, ?, ?, ?)`);
      const days = new Map<number, number>();
      for (const [i, hour] of hours.entries()) {
        await db().query(insert('quota_data'), [carolId, 'carol', 'model-c', hour, 10, 1, 100 + i]);
        const day = hour - (hour % DAY);
        days.set(day, (days.get(day) ?? 0) + 1);
      }
      for (const [day, calls] of days) {
        const quota = hours.map((hour, i) => ({ hour, quota: 100 + i })).filter(({ hour }) => hour - (hour % DAY) === day).reduce((sum, { quota }) => sum + quota, 0);
        await db().query(insert('quota_data_daily'), [carolId, 'carol', 'model-c', day, 10 * calls, calls, quota]);
      }
    });

    /** What the hourly buckets alone say for a window: calls per day. */
    const expectedByDay = (start: number, end: number) => {
      const calls = new Map<number, number>();
      for (const hour of hours) if (hour >= start - (start % HOUR) && hour <= end) calls.set(hour - (hour % DAY), (calls.get(hour - (hour % DAY)) ?? 0) + 1);
      return [...calls.entries()].map(([day, count]) => ({ created_at: day, count }));
    };

    it.each([
      ['cut on both sides', day0 + 20 * HOUR + 1800, day0 + 2 * DAY + 5 * HOUR],
      ['whole days only', day0, day0 + 3 * DAY - 1],
      ['within one day', day0 + DAY + 3 * HOUR, day0 + DAY + 9 * HOUR],
      ['ending on an hour boundary', day0 + 16 * HOUR, day0 + 2 * DAY - HOUR],
    ])('by day, %s: the days inside from the daily buckets, the cut ones hour by hour', async (_case, start, end) => {
      const answer = await root.get('/api/data/').query({ username: 'carol', granularity: 'day', start_timestamp: start, end_timestamp: end });
      expect(answer.body.success).toBe(true);
      expect(answer.body.data.map((row: { created_at: number; count: number }) => ({ created_at: row.created_at, count: row.count }))).toEqual(expectedByDay(start, end));
      const quota = answer.body.data.reduce((sum: number, row: { quota: number }) => sum + row.quota, 0);
      expect(quota).toBe(hours.map((hour, i) => (hour >= start - (start % HOUR) && hour <= end ? 100 + i : 0)).reduce((a, b) => a + b, 0));
      expect(answer.body.data.every((row: { user_id: number; username: string }) => row.user_id === carolId && row.username === 'carol')).toBe(true);
    });

    it('by week, the same calls in week buckets', async () => {
      const start = day0 + 20 * HOUR;
      const end = day0 + 2 * DAY + 5 * HOUR;
      const answer = await root.get('/api/data/').query({ username: 'carol', granularity: 'week', start_timestamp: start, end_timestamp: end });
      const total = answer.body.data.reduce((sum: number, row: { count: number }) => sum + row.count, 0);
      expect(total).toBe(expectedByDay(start, end).reduce((sum, day) => sum + day.count, 0));
      expect(answer.body.data.every((row: { created_at: number }) => (row.created_at - 4 * DAY) % (7 * DAY) === 0)).toBe(true);
    });

    it('the migration fills the daily buckets from the hourly ones', async () => {
      const snapshot = async () => db().query('SELECT user_id, username, model_name, created_at, token_used, count, quota FROM quota_data_daily ORDER BY user_id, created_at, model_name');
      const before = await snapshot();
      const migration = new QuotaDataDaily1795760000000();
      const runner = db().createQueryRunner();
      try {
        await migration.down(runner);
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  it('refuses a bad window or granularity with a clear message', async () => {
    const now = Math.floor(Date.now() / 1000);
    const reversed = await root.get('/api/data/').query({ start_timestamp: now, end_timestamp: now - 10 }).set('Accept-Language', 'en');
    expect(reversed.body).toMatchObject({ success: false, message: 'The start time must not be after the end time' });
    const granularity = await root.get('/api/data/').query({ granularity: 'month' }).set('Accept-Language', 'en');
    expect(granularity.body).toMatchObject({ success: false, message: 'Granularity must be hour, day or week' });
    // Hour by hour for a week at most; a longer window by day or week.
    const week = { start_timestamp: now - 7 * DAY, end_timestamp: now };
    expect((await root.get('/api/data/').query({ ...week, granularity: 'hour' })).body.success).toBe(true);
    expect((await alice.get('/api/data/self/').query(week)).body.success).toBe(true);
    const month = { start_timestamp: now - 30 * DAY, end_timestamp: now };
    const byHour = await root.get('/api/data/').query({ ...month, granularity: 'hour' }).set('Accept-Language', 'en');
    expect(byHour.body).toMatchObject({ success: false, message: 'By hour, the time span must not exceed 7 days: shorten the window or view by day' });
    const selfByHour = await alice.get('/api/data/self/').query({ start_timestamp: now - 7 * DAY - 1, end_timestamp: now });
    expect(selfByHour.body).toMatchObject({ success: false, message: '按小时查看时，时间跨度不能超过 7 天，请缩短时间范围或按天查看' });
    expect((await root.get('/api/data/').query({ ...month, granularity: 'day' })).body.success).toBe(true);
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
