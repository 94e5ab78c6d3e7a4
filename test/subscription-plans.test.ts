import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { createAdmin, registerUser, setupRoot, type Session } from './support/accounts';
import { MockEpay } from './support/mock-epay';
import { MockStripe } from './support/mock-stripe';
import { MockUpstream } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { expectLedgerBalanced as expectLedgerBalancedFor, ledgerLogs, ownSubscriptions } from './support/ledger-invariant';
import { relayChat, type RelayAnswer } from './support/relay-call';
import { startTestApp, testSql, type TestApp } from './support/test-app';
import { BudgetClock } from '../src/modules/billing/budget-window.service';
import { HoldJournalService } from '../src/modules/billing/hold-journal.service';
import type { PlanView, SubscriptionView } from '../src/modules/plans/plan.wire';

/** Per-call price 0.0002 × QuotaPerUnit 500000: every call holds and costs exactly 100. */
const PER_CALL = 100;
const QUOTA_PER_UNIT = 500_000;
const WEBHOOK_SECRET = 'whsec_plans_test_secret';
const DAY = 86_400;
/** The windows' clock, pinned: a Monday morning, so the day window is open for hours either way. */
const T0 = Date.parse('2026-08-03T09:00:00Z') / 1000;

describe('subscription plans', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let epay: MockEpay;
  let mockStripe: MockStripe;
  let seed: RelaySeed;
  let root: Session;
  let dataSource: DataSource;
  // Only for its webhook test-header helper; it never calls out.
  const signer = new Stripe('sk_test_signer_only');

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    epay = await new MockEpay('1001', 'merchant-secret-key').start();
    mockStripe = await new MockStripe('sk_test_gateway').start();
    app = await startTestApp({ STRIPE_API_URL: mockStripe.url });
    seed = new RelaySeed(app);
    dataSource = app.app.get(DataSource);
    root = await setupRoot(app);
    setClock(T0);
    await seed.setOption('ModelPrice', JSON.stringify({ 'plan-model': 0.0002, 'other-model': 0.0002 }));
    await seed.setOption('PreConsumedQuota', 0);
    await seed.setOption('ServerAddress', app.baseUrl);
    await seed.setOption('PayAddress', epay.url);
    await seed.setOption('EpayId', epay.merchantId);
    await seed.setOption('EpayKey', epay.key);
    await seed.setOption('Price', 7.3);
    await seed.setOption('StripeApiSecret', 'sk_test_gateway');
    await seed.setOption('StripeWebhookSecret', WEBHOOK_SECRET);
    await seed.setOption('StripeUnitPrice', 2.5);
    await seed.createChannel({ base_url: upstream.url, models: 'plan-model,other-model' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.stop();
    await upstream.stop();
    await epay.stop();
    await mockStripe.stop();
  });
  beforeEach(() => upstream.reset());

  function setClock(seconds: number): void {
    jest.spyOn(app.app.get(BudgetClock), 'nowSeconds').mockReturnValue(seconds);
  }

  async function createPlan(fields: Partial<PlanView> & { name: string }): Promise<PlanView> {
    const response = await root.post('/api/plan/', { price: 2, duration_days: 30, ...fields });
    expect(response.body).toMatchObject({ success: true });
    return response.body.data as PlanView;
  }

  /** A user with `quota` in the wallet and an unlimited token. */
  async function customer(username: string, quota: number): Promise<{ user: Session; tokenId: number; apiKey: string }> {
    const user = await registerUser(app, username);
    await seed.setUserQuota(user.id, quota);
    const token = await seed.createToken(user.id, { unlimited_quota: true });
    return { user, tokenId: token.id, apiKey: token.apiKey };
  }

  async function buy(user: Session, planId: number): Promise<SubscriptionView> {
    const response = await user.post('/api/subscription/self', { plan_id: planId });
    expect(response.body).toMatchObject({ message: '', success: true });
    return response.body.data as SubscriptionView;
  }

  const subscriptionsOf = (user: Session): Promise<SubscriptionView[]> => ownSubscriptions(app, user);

  const chat = (apiKey: string, model = 'plan-model'): Promise<RelayAnswer> => relayChat(app, apiKey, { model });

  const logsOf = (userId: number) => ledgerLogs(app, userId);

  const expectLedgerBalanced = (user: Session, startQuota: number) => expectLedgerBalancedFor(app, user, startQuota);

  it('lets administrators create, read, change and delete plans, and users see only those on sale', async () => {
    const bad = await root.post('/api/plan/', { name: 'bad', price: 1.234, duration_days: 30 }).set('Accept-Language', 'en');
    expect(bad.body).toMatchObject({ success: false, message: 'The price must be a number from 0 to 1000000 with at most two decimals' });
    const windows = await root.post('/api/plan/', { name: 'bad', price: 1, duration_days: 30, budget_windows: [{ period: 'hour', quota: 1 }] });
    expect(windows.body.success).toBe(false);

    const plan = await createPlan({ name: 'Starter', price: 9.9, total_quota: 5_000, budget_windows: [{ period: 'day', quota: 1_000 }], models: ['plan-model', 'plan-model'] });
    expect(plan).toMatchObject({ name: 'Starter', price: 9.9, price_quota: 9.9 * QUOTA_PER_UNIT, duration_days: 30, group: '', total_quota: 5_000, models: ['plan-model'], enabled: true, allow_wallet_fallback: false });
    expect((await root.get(`/api/plan/${plan.id}`)).body.data).toEqual(plan);
    const hidden = await createPlan({ name: 'Hidden', enabled: false });

    const changed = await root.put('/api/plan/', { id: plan.id, price: 12, allow_wallet_fallback: true, models: [] });
    expect(changed.body.data).toMatchObject({ price: 12, allow_wallet_fallback: true, models: null, name: 'Starter' });

    const user = await registerUser(app, 'browser');
    const onSale = (await user.get('/api/subscription/plans')).body.data as PlanView[];
    expect(onSale.map((entry) => entry.id)).toContain(plan.id);
    expect(onSale.map((entry) => entry.id)).not.toContain(hidden.id);
    expect((await user.post('/api/subscription/self', { plan_id: hidden.id })).body.success).toBe(false);

    expect((await root.delete(`/api/plan/${hidden.id}`)).body.data).toEqual({ deleted: true, disabled: false });
    expect((await root.get(`/api/plan/${hidden.id}`)).body.success).toBe(false);
  });

  it('sells a plan from the balance with a logged debit, renews by extending the period, and refuses a balance that does not cover it', async () => {
    const plan = await createPlan({ name: 'Balance plan', price: 2, total_quota: 10_000 });
    const { user } = await customer('balancebuy', 2_500_000);
    const bought = await buy(user, plan.id);
    expect(bought).toMatchObject({ plan_id: plan.id, status: 'active', starts_at: T0, expires_at: T0 + 30 * DAY, total_quota: 10_000, used: 0 });
    expect((await seed.userQuota(user.id)).quota).toBe(2_500_000 - 2 * QUOTA_PER_UNIT);

    const renewed = await buy(user, plan.id);
    expect(renewed).toMatchObject({ id: bought.id, starts_at: T0, expires_at: T0 + 60 * DAY, total_quota: 20_000 });
    expect((await subscriptionsOf(user)).length).toBe(1);

    // 500,000 left: not enough for a third period; nothing moves.
    const refused = await user.post('/api/subscription/self', { plan_id: plan.id }).set('Accept-Language', 'en');
    expect(refused.body).toEqual({ success: false, message: 'Your balance does not cover the price of this plan', data: null });
    expect((await subscriptionsOf(user))[0].expires_at).toBe(T0 + 60 * DAY);

    const purchases = (await logsOf(user.id)).filter((log) => log.other.reason === 'plan_purchase');
    expect(purchases.map((log) => [log.quota, log.other.renewed, log.other.subscription_id])).toEqual([
      [-1_000_000, false, bought.id],
      [-1_000_000, true, bought.id],
    ]);
    await expectLedgerBalanced(user, 2_500_000);
  });

  it('grants a plan once through an Epay notice replayed 20 times, without touching the balance', async () => {
    const plan = await createPlan({ name: 'Epay plan', price: 2 });
    const { user } = await customer('epaybuy', 0);
    const response = await user.post('/api/user/pay', { plan_id: plan.id, payment_method: 'alipay' });
    expect(response.body).toMatchObject({ success: true });
    const form = response.body.data as { url: string; params: Record<string, string> };
    expect(form.params).toMatchObject({ money: '14.60', name: `PLAN${plan.id}` });

    const notify = `${app.baseUrl}/api/user/epay/notify`;
    const notice = epay.notice(form.params);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => epay.deliver(notify, notice, index % 2 ? 'POST' : 'GET')));
    expect(replies.every((reply) => reply === 'success')).toBe(true);

    const subscriptions = await subscriptionsOf(user);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ plan_id: plan.id, status: 'active', expires_at: T0 + 30 * DAY });
    expect((await seed.userQuota(user.id)).quota).toBe(0);
    const granted = (await logsOf(user.id)).filter((log) => log.other.reason === 'plan_purchase');
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ quota: 0, other: { plan_id: plan.id, subscription_id: subscriptions[0].id, trade_no: form.params.out_trade_no } });
    const history = await user.get('/api/user/topup/self');
    expect(history.body.data.items[0]).toMatchObject({ plan_id: plan.id, quota: 0, money: '14.60', status: 'success' });
  });

  it('grants a plan once through a signed Stripe webhook, replayed', async () => {
    const plan = await createPlan({ name: 'Stripe plan', price: 3 });
    const { user } = await customer('stripebuy', 0);
    expect((await user.post('/api/user/pay', { plan_id: plan.id, payment_method: 'stripe' })).body).toMatchObject({ success: true });
    const session = mockStripe.sessions[mockStripe.sessions.length - 1];
    expect(session.amount_total).toBe(750);
    const payload = mockStripe.completedEvent(session);
    const header = () => signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const send = () => app.http.post('/api/user/stripe/webhook').set('content-type', 'application/json').set('stripe-signature', header()).send(payload);
    const replies = await Promise.all(Array.from({ length: 5 }, send));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const subscriptions = await subscriptionsOf(user);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ plan_id: plan.id, status: 'active' });
    expect((await logsOf(user.id)).filter((log) => log.other.reason === 'plan_purchase')).toHaveLength(1);
  });

  it('grants the plan a redemption code carries instead of quota, once', async () => {
    const plan = await createPlan({ name: 'Code plan', price: 5 });
    const created = await root.post('/api/redemption/', { name: 'plan code', plan_id: plan.id });
    expect(created.body.success).toBe(true);
    const [key] = created.body.data as string[];
    const { user } = await customer('coderedeem', 0);
    const redeemed = await user.post('/api/user/topup', { key });
    expect(redeemed.body).toMatchObject({ success: true, data: 0 });
    expect((await user.post('/api/user/topup', { key })).body.success).toBe(false);
    const subscriptions = await subscriptionsOf(user);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ plan_id: plan.id, status: 'active' });
    expect((await seed.userQuota(user.id)).quota).toBe(0);
    const logs = (await logsOf(user.id)).filter((log) => log.other.reason === 'redeem');
    expect(logs).toHaveLength(1);
    expect(logs[0].other).toMatchObject({ plan_id: plan.id, subscription_id: subscriptions[0].id });
  });

  it('draws from the plan first within its window; without overflow it then refuses, and models outside the plan pay from the wallet', async () => {
    const plan = await createPlan({ name: 'Strict', price: 0, budget_windows: [{ period: 'day', quota: 3 * PER_CALL }], models: ['plan-model'] });
    const { user, apiKey } = await customer('strictuser', 10_000);
    const subscription = await buy(user, plan.id);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await chat(apiKey)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await chat(apiKey);
    expect(refused.error?.code).toBe('budget_exceeded');
    expect(refused.error?.message).toContain(`subscription #${subscription.id}`);
    expect(refused.headers.get('retry-after')).toBe(String(15 * 3600));
    // Another model is not the plan's: the wallet pays for it.
    expect((await chat(apiKey, 'other-model')).status).toBe(200);
    await seed.flush();
    expect((await seed.userQuota(user.id)).quota).toBe(10_000 - PER_CALL);
    const [own] = await subscriptionsOf(user);
    expect(own).toMatchObject({ used: 3 * PER_CALL, budget_usage: [{ period: 'day', quota: 3 * PER_CALL, used: 3 * PER_CALL, resets_at: T0 + 15 * 3600 }] });

    // The logs page filters by subscription, for the user and for administrators.
    const mine = await user.get(`/api/log/self?subscription_id=${subscription.id}&type=2`);
    expect(mine.body.data.items).toHaveLength(3);
    const admin = await root.get(`/api/log/?subscription_id=${subscription.id}`);
    expect(admin.body.data.items).toHaveLength(3);
    await expectLedgerBalanced(user, 10_000);
  });

  it('falls back to the wallet when the plan allows it, once its total allowance is used', async () => {
    const plan = await createPlan({ name: 'Overflow', price: 0, total_quota: 2 * PER_CALL, allow_wallet_fallback: true });
    const { user, apiKey } = await customer('overflowusr', 10_000);
    const subscription = await buy(user, plan.id);
    for (let i = 0; i < 4; i++) expect((await chat(apiKey)).status).toBe(200);
    const logs = (await logsOf(user.id)).filter((log) => log.type === 2);
    expect(logs.map((log) => log.subscription_id)).toEqual([subscription.id, subscription.id, 0, 0]);
    expect((await seed.userQuota(user.id)).quota).toBe(10_000 - 2 * PER_CALL);
    await expectLedgerBalanced(user, 10_000);
  });

  it('enforces expiry at call time: once the clock passes the end, the plan pays for nothing', async () => {
    const plan = await createPlan({ name: 'Short', price: 0, duration_days: 1 });
    const { user, apiKey } = await customer('expiringusr', 0);
    await buy(user, plan.id);
    expect((await chat(apiKey)).status).toBe(200);
    try {
      setClock(T0 + DAY);
      const after = await chat(apiKey);
      expect(after.status).toBe(403);
      expect(after.error?.code).toBe('insufficient_quota');
      const [expired] = await subscriptionsOf(user);
      expect(expired).toMatchObject({ status: 'expired', used: PER_CALL });
    } finally {
      setClock(T0);
    }
  });

  it('never lets 200 concurrent calls overdraw a plan window funded for 50', async () => {
    const plan = await createPlan({ name: 'Crowd', price: 0, budget_windows: [{ period: 'day', quota: 50 * PER_CALL }] });
    const { user, apiKey } = await customer('crowduser', 1_000_000);
    const subscription = await buy(user, plan.id);
    const answers = await Promise.all(Array.from({ length: 200 }, () => chat(apiKey)));
    const passed = answers.filter((answer) => answer.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(40);
    expect(passed).toBeLessThanOrEqual(50);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.error?.code === 'budget_exceeded')).toBe(true);
    const [own] = await subscriptionsOf(user);
    expect(own).toMatchObject({ id: subscription.id, used: passed * PER_CALL });
    expect(own.budget_usage[0].used).toBe(passed * PER_CALL);
    expect((await seed.userQuota(user.id)).quota).toBe(1_000_000);
    await expectLedgerBalanced(user, 1_000_000);
  });

  it('shows administrators a user’s subscriptions in the shape of the user’s own, for the users they outrank', async () => {
    const plan = await createPlan({ name: 'Watched', price: 0, total_quota: 10 * PER_CALL, budget_windows: [{ period: 'day', quota: 5 * PER_CALL }] });
    const { user, apiKey } = await customer('watcheduser', 0);
    await buy(user, plan.id);
    expect((await chat(apiKey)).status).toBe(200);
    const own = await subscriptionsOf(user);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ plan_name: 'Watched', status: 'active', used: PER_CALL, budget_usage: [{ period: 'day', quota: 5 * PER_CALL, used: PER_CALL }] });
    expect((await root.get(`/api/user/${user.id}/subscriptions`)).body).toEqual({ success: true, message: '', data: own });

    const admin = await createAdmin(app, root, 'planadmin');
    expect((await admin.get(`/api/user/${user.id}/subscriptions`)).body.data).toEqual(own);
    // Not above their rank, not for users, and not for nobody.
    expect((await admin.get(`/api/user/${root.id}/subscriptions`)).body.success).toBe(false);
    expect((await user.get(`/api/user/${user.id}/subscriptions`)).body.success).toBe(false);
    expect((await root.get('/api/user/999999/subscriptions')).body.success).toBe(false);
    const { user: plain } = await customer('plainuser', 0);
    expect((await root.get(`/api/user/${plain.id}/subscriptions`)).body).toEqual({ success: true, message: '', data: [] });
  });

  it('journals a draw with its subscription, gives it back when the call fails, and a crash refund returns it to the plan and its window', async () => {
    const plan = await createPlan({ name: 'Journal', price: 0, budget_windows: [{ period: 'day', quota: 10 * PER_CALL }] });
    const { user, tokenId, apiKey } = await customer('journaluser', 0);
    const subscription = await buy(user, plan.id);
    const usedNow = async () => {
      const [row] = await dataSource.query(testSql('SELECT used FROM subscriptions WHERE id = ?'), [subscription.id]);
      const [window] = await dataSource.query(testSql("SELECT used, window_start FROM budget_usage WHERE holder_kind = 'sub' AND holder_id = ?"), [subscription.id]);
      return { plan: Number(row.used), window: Number(window?.used ?? 0), windowStart: Number(window?.window_start ?? 0) };
    };

    upstream.handler = () => ({ sse: [], hangAfter: true });
    const abort = new AbortController();
    const hanging = fetch(`${app.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'plan-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: abort.signal,
    }).catch(() => undefined);
    for (let attempt = 0; attempt < 200 && upstream.requests.length < 1; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(upstream.requests).toHaveLength(1);
    const [journal] = await dataSource.query(testSql('SELECT subscription_id, from_plan, from_user FROM quota_holds WHERE user_id = ?'), [user.id]);
    expect({ subscription: Number(journal.subscription_id), fromPlan: Number(journal.from_plan), fromUser: Number(journal.from_user) }).toEqual({ subscription: subscription.id, fromPlan: PER_CALL, fromUser: 0 });
    expect(await usedNow()).toMatchObject({ plan: PER_CALL, window: PER_CALL });

    abort.abort();
    await hanging;
    for (let attempt = 0; attempt < 200 && (await usedNow()).plan !== 0; attempt++) {
      await seed.flush();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await usedNow()).toMatchObject({ plan: 0, window: 0 });
    expect(await dataSource.query(testSql('SELECT id FROM quota_holds WHERE user_id = ?'), [user.id])).toHaveLength(0);

    // A hold left by a process that died: its row names another owner; the sweep gives it back to the plan and its window.
    const { windowStart } = await usedNow();
    await dataSource.query(testSql('UPDATE subscriptions SET used = used + 250 WHERE id = ?'), [subscription.id]);
    await dataSource.query(testSql("UPDATE budget_usage SET used = used + 250 WHERE holder_kind = 'sub' AND holder_id = ?"), [subscription.id]);
    await dataSource.query(testSql('INSERT INTO quota_holds (id, token_id, user_id, from_token, from_user, created_at, windows, subscription_id, from_plan) VALUES (?, ?, ?, 0, 0, ?, ?, ?, 250)'), [
      'deadowner-1',
      tokenId,
      user.id,
      T0,
      JSON.stringify([['sub', subscription.id, 'day', windowStart]]),
      subscription.id,
    ]);
    expect(await app.app.get(HoldJournalService).refundAbandonedHolds()).toBe(1);
    expect(await usedNow()).toMatchObject({ plan: 0, window: 0 });
    const refund = (await logsOf(user.id)).find((log) => log.other.refunded_plan_hold !== undefined);
    expect(refund).toMatchObject({ type: 4, quota: 0, other: { refunded_plan_hold: 250, subscription_id: subscription.id } });
    await expectLedgerBalanced(user, 0);
  });
});
