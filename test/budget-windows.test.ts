import { registerUser, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { relayChat, startRelayPair, type RelayAnswer } from './support/relay-call';
import { testSql, type TestApp } from './support/test-app';
import { BudgetClock } from '../src/modules/billing/budget-window.service';
import { HoldJournalService } from '../src/modules/billing/hold-journal.service';
import type { TokenView } from '../src/modules/tokens/token.wire';
import type { UserView } from '../src/modules/users/user.wire';
import { DataSource } from 'typeorm';

/** Per-call price 0.0002 × QuotaPerUnit 500000: every call holds and costs exactly 100. */
const PER_CALL = 100;

function chat(app: TestApp, apiKey: string, model = 'window-model', extra: object = {}): Promise<RelayAnswer> {
  return relayChat(app, apiKey, { model, ...extra });
}

/** Pins the budget windows' clock of an app to `seconds` (unix). */
function setClock(app: TestApp, seconds: number): void {
  const clock = app.app.get(BudgetClock);
  jest.spyOn(clock, 'nowSeconds').mockReturnValue(seconds);
}

const at = (iso: string) => Date.parse(iso) / 1000;

describe('budget windows on tokens and users', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, upstream, seed, root, stop } = await startRelayTestbed());
    await seed.setOption('ModelPrice', JSON.stringify({ 'window-model': 0.0002 }));
    await seed.setOption('ModelRatio', JSON.stringify({ 'token-model': 2 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'token-model': 3 }));
    await seed.setOption('PreConsumedQuota', 0);
    await seed.createChannel({ base_url: upstream.url, models: 'window-model,token-model' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await stop();
  });
  beforeEach(() => upstream.reset());

  async function tokenWithWindows(username: string, windows: object[], userQuota = 1_000_000): Promise<{ user: Session; token: TokenView; apiKey: string }> {
    const user = await registerUser(app, username);
    await seed.setUserQuota(user.id, userQuota);
    const created = await user.post('/api/token/', { name: 'windowed', remain_quota: 500_000, budget_windows: windows });
    expect(created.body.success).toBe(true);
    const token = (created.body.data as TokenView[])[0];
    return { user, token, apiKey: token.key };
  }

  async function usageOf(user: Session, tokenId: number): Promise<TokenView['budget_usage']> {
    await seed.flush();
    const response = await user.get(`/api/token/${tokenId}`);
    return (response.body.data as TokenView).budget_usage;
  }

  it('refuses a day window at its boundary and passes again once the clock crosses midnight in the configured zone', async () => {
    await seed.setOption('BudgetTimeZone', 'Asia/Shanghai');
    // 23:50 in Shanghai (UTC+8).
    const beforeMidnight = at('2026-03-10T15:50:00Z');
    setClock(app, beforeMidnight);
    const { user, token, apiKey } = await tokenWithWindows('dayuser', [{ period: 'day', quota: 1000 }]);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await chat(app, apiKey)).status);
    expect(statuses).toEqual(new Array(10).fill(200));
    const callsBefore = upstream.requests.length;
    const refused = await chat(app, apiKey);
    expect(refused.status).toBe(429);
    expect(refused.error?.code).toBe('budget_exceeded');
    const midnight = at('2026-03-10T16:00:00Z');
    expect(refused.error?.message).toContain('day budget of 1000');
    expect(refused.error?.message).toContain(new Date(midnight * 1000).toISOString());
    expect(Number(refused.headers.get('retry-after'))).toBe(midnight - beforeMidnight);
    expect(upstream.requests.length).toBe(callsBefore);
    expect(await usageOf(user, token.id)).toEqual([{ period: 'day', quota: 1000, used: 1000, resets_at: midnight }]);

    setClock(app, midnight - 1);
    expect((await chat(app, apiKey)).status).toBe(429);
    setClock(app, midnight + 30);
    expect((await chat(app, apiKey)).status).toBe(200);
    expect(await usageOf(user, token.id)).toEqual([{ period: 'day', quota: 1000, used: PER_CALL, resets_at: midnight + 86_400 }]);
    await seed.setOption('BudgetTimeZone', 'UTC');
  });

  it('rolls a 5h window from the first call after the last one closed', async () => {
    const first = at('2026-04-01T10:17:00Z');
    setClock(app, first);
    const { user, token, apiKey } = await tokenWithWindows('rolluser', [{ period: '5h', quota: 200 }]);
    expect(await usageOf(user, token.id)).toEqual([{ period: '5h', quota: 200, used: 0, resets_at: null }]);
    expect((await chat(app, apiKey)).status).toBe(200);
    setClock(app, first + 3600);
    expect((await chat(app, apiKey)).status).toBe(200);
    const refused = await chat(app, apiKey);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(4 * 3600);
    expect(await usageOf(user, token.id)).toEqual([{ period: '5h', quota: 200, used: 200, resets_at: first + 5 * 3600 }]);
    // The window closed at first + 5h; nothing opens until the next call, which starts a new one.
    const later = first + 7 * 3600;
    setClock(app, later);
    expect(await usageOf(user, token.id)).toEqual([{ period: '5h', quota: 200, used: 0, resets_at: null }]);
    expect((await chat(app, apiKey)).status).toBe(200);
    expect(await usageOf(user, token.id)).toEqual([{ period: '5h', quota: 200, used: PER_CALL, resets_at: later + 5 * 3600 }]);
  });

  it('lets the tightest of several windows decide, the user’s as well as the token’s', async () => {
    setClock(app, at('2026-05-06T12:00:00Z'));
    const { user, token, apiKey } = await tokenWithWindows('tightuser', [
      { period: 'day', quota: 1000 },
      { period: 'week', quota: 300 },
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await chat(app, apiKey)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await chat(app, apiKey);
    expect(refused.error?.message).toContain('week budget of 300');
    // Weeks start on Monday: 2026-05-06 is a Wednesday, so the week resets on Monday the 11th.
    expect((await usageOf(user, token.id)).find((window) => window.period === 'week')?.resets_at).toBe(at('2026-05-11T00:00:00Z'));

    // The administrator gives the user a month window tighter than the token's: it decides now.
    const other = await tokenWithWindows('tightuser2', [{ period: 'day', quota: 1000 }]);
    const updated = await root.put('/api/user/', { id: other.user.id, budget_windows: [{ period: 'month', quota: 200 }] });
    expect(updated.body.success).toBe(true);
    expect((updated.body.data as UserView).budget_windows).toEqual([{ period: 'month', quota: 200 }]);
    const results: number[] = [];
    for (let i = 0; i < 3; i++) results.push((await chat(app, other.apiKey)).status);
    expect(results).toEqual([200, 200, 429]);
    const monthRefusal = await chat(app, other.apiKey);
    expect(monthRefusal.error?.message).toContain('Your account has reached its month budget of 200');
    await seed.flush();
    const self = (await other.user.get('/api/user/self')).body.data as UserView;
    expect(self.budget_usage).toEqual([{ period: 'month', quota: 200, used: 200, resets_at: at('2026-06-01T00:00:00Z') }]);
  });

  it('settles the difference and refunds failures, so a window’s use equals its logs', async () => {
    setClock(app, at('2026-07-01T08:00:00Z'));
    const { user, token, apiKey } = await tokenWithWindows('settleuser', [{ period: 'day', quota: 100_000 }]);
    // Hold: (prompt estimate + 50 × 3) × 2; cost: (12 + 7 × 3) × 2 = 66.
    for (let i = 0; i < 3; i++) expect((await chat(app, apiKey, 'token-model', { max_tokens: 50 })).status).toBe(200);
    upstream.handler = () => ({ status: 500, json: { error: { message: 'down' } } });
    expect((await chat(app, apiKey, 'token-model', { max_tokens: 50 })).status).toBe(500);
    upstream.handler = undefined;
    await seed.flush();
    const logs = await seed.consumeLogs({ tokenId: token.id });
    expect(logs.map((log) => log.quota)).toEqual([66, 66, 66]);
    expect((await usageOf(user, token.id))[0].used).toBe(198);
  });

  it('gives a crashed process’s holds back to their windows with the balance', async () => {
    const now = at('2026-07-02T08:00:00Z');
    setClock(app, now);
    const { user, token, apiKey } = await tokenWithWindows('crashuser', [{ period: 'day', quota: 10_000 }]);
    expect((await chat(app, apiKey)).status).toBe(200);
    await seed.flush();
    const dataSource = app.app.get(DataSource);
    const dayStart = at('2026-07-02T00:00:00Z');
    // A hold of 300 left by a process that died: taken from the user and counted in the window, journaled with it.
    await dataSource.query(testSql('UPDATE users SET quota = quota - 300 WHERE id = ?'), [user.id]);
    await dataSource.query(testSql("UPDATE budget_usage SET used = used + 300 WHERE holder_kind = 'token' AND holder_id = ?"), [token.id]);
    await dataSource.query(testSql('INSERT INTO quota_holds (id, token_id, user_id, from_token, from_user, created_at, windows) VALUES (?, ?, ?, 0, 300, 0, ?)'), [
      'deadowner-1',
      token.id,
      user.id,
      JSON.stringify([['token', token.id, 'day', dayStart]]),
    ]);
    expect((await usageOf(user, token.id))[0].used).toBe(PER_CALL + 300);
    expect(await app.app.get(HoldJournalService).refundAbandonedHolds()).toBe(1);
    expect((await usageOf(user, token.id))[0].used).toBe(PER_CALL);
    expect((await seed.userQuota(user.id)).quota).toBe(1_000_000 - PER_CALL);
  });

  it('answers the refusal in the inbound API’s own error shape', async () => {
    setClock(app, at('2026-07-03T08:00:00Z'));
    const { apiKey } = await tokenWithWindows('shapeuser', [{ period: 'month', quota: 0 }]);
    const claude = await fetch(`${app.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'window-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(429);
    expect(Number(claude.headers.get('retry-after'))).toBe(at('2026-08-01T00:00:00Z') - at('2026-07-03T08:00:00Z'));
    const body = (await claude.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(body.error.message).toContain('month budget of 0');
    const gemini = await fetch(`${app.baseUrl}/v1beta/models/window-model:generateContent?key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(429);
    expect(((await gemini.json()) as { error: { status: string } }).error.status).toBe('RESOURCE_EXHAUSTED');
  });

  it('rejects malformed windows with a clear error', async () => {
    const user = await registerUser(app, 'badwindows');
    for (const windows of [[{ period: 'year', quota: 1 }], [{ period: 'day', quota: -1 }], [{ period: 'day', quota: 1 }, { period: 'day', quota: 2 }], 'day']) {
      const response = await user.post('/api/token/', { name: 'x', budget_windows: windows });
      expect(response.body.success).toBe(false);
      expect(response.body.message).toMatch(/window|周期/);
    }
  });

  it('admits at least 40 and never more than 50 of 200 concurrent calls against a window funded for 50', async () => {
    setClock(app, at('2026-08-03T09:00:00Z'));
    const { user, token, apiKey } = await tokenWithWindows('crowduser', [{ period: 'day', quota: 50 * PER_CALL }]);
    const answers = await Promise.all(Array.from({ length: 200 }, () => chat(app, apiKey)));
    const passed = answers.filter((answer) => answer.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(40);
    expect(passed).toBeLessThanOrEqual(50);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.error?.code === 'budget_exceeded')).toBe(true);
    await seed.flush();
    const logs = await seed.consumeLogs({ tokenId: token.id });
    expect(logs).toHaveLength(passed);
    expect((await usageOf(user, token.id))[0].used).toBe(passed * PER_CALL);
    expect((await seed.userQuota(user.id)).quota).toBe(1_000_000 - passed * PER_CALL);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('budget windows on two instances sharing the database and Redis', () => {
  it('admits at least 40 and never more than 50 of 200 concurrent calls split over both', async () => {
    const { pair, seed, userId, stop } = await startRelayPair(redisUrl!, { ModelPrice: JSON.stringify({ 'window-model': 0.0002 }) }, 'window-model');
    try {
      const { first, second } = pair;
      const { id: tokenId, apiKey } = await seed.createToken(userId, { budget_windows: JSON.stringify([{ period: 'day', quota: 50 * PER_CALL }]) });
      const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => chat(index % 2 === 0 ? first : second, apiKey)));
      const passed = answers.filter((answer) => answer.status === 200).length;
      expect(passed).toBeGreaterThanOrEqual(40);
      expect(passed).toBeLessThanOrEqual(50);
      await seed.flush();
      await new RelaySeed(second).flush();
      const [row] = await first.app.get(DataSource).query(testSql("SELECT used FROM budget_usage WHERE holder_kind = 'token' AND holder_id = ?"), [tokenId]);
      expect(Number(row.used)).toBe(passed * PER_CALL);
      expect(await seed.consumeLogs({ tokenId })).toHaveLength(passed);
    } finally {
      await stop();
    }
  });
});
