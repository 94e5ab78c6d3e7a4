import Stripe from 'stripe';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MockStripe } from './support/mock-stripe';
import { RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp, testSql } from './support/test-app';

const WEBHOOK_SECRET = 'whsec_gateway_test_secret';

describe('wallet: Stripe top-up', () => {
  let app: TestApp;
  let seed: RelaySeed;
  let mockStripe: MockStripe;
  let dataSource: DataSource;
  let user: Session;
  // Only for its webhook test-header helper; it never calls out.
  const signer = new Stripe('sk_test_signer_only');

  beforeAll(async () => {
    mockStripe = await new MockStripe('sk_test_gateway').start();
    app = await startTestApp({ STRIPE_API_URL: mockStripe.url });
    seed = new RelaySeed(app);
    dataSource = app.app.get(DataSource);
    await setupRoot(app);
    user = await registerUser(app, 'stripe-payer');
  });
  afterAll(async () => {
    await app.stop();
    await mockStripe.stop();
  });

  const quota = async () => (await seed.userQuota(user.id)).quota;
  const topUpLogs = async () => Number((await dataSource.query(testSql('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 1'), [user.id]))[0].n);

  function sendWebhook(payload: string, secret = WEBHOOK_SECRET): request.Test {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return app.http.post('/api/user/stripe/webhook').set('content-type', 'application/json').set('stripe-signature', header).send(payload);
  }

  async function checkout(amount: number) {
    const response = await user.post('/api/user/pay', { amount, payment_method: 'stripe' });
    expect(response.body).toMatchObject({ success: true });
    return response.body.data as { url: string; params: Record<string, string> };
  }

  it('refuses until the Stripe keys and the server address are set', async () => {
    const response = await user.post('/api/user/pay', { amount: 3, payment_method: 'stripe' }).set('Accept-Language', 'en');
    expect(response.body).toMatchObject({ success: false, message: 'The administrator has not configured online payment' });
  });

  it('opens a Checkout Session for the order and credits once on the signed webhook, even replayed 20 times at once', async () => {
    await seed.setOption('ServerAddress', app.baseUrl);
    await seed.setOption('StripeApiSecret', 'sk_test_gateway');
    await seed.setOption('StripeWebhookSecret', WEBHOOK_SECRET);
    await seed.setOption('StripeUnitPrice', 2.5);
    const before = await quota();
    const form = await checkout(3);
    const session = mockStripe.sessions[mockStripe.sessions.length - 1];
    expect(form).toEqual({ url: session.url, params: {} });
    expect(session).toMatchObject({ amount_total: 750, currency: 'usd', mode: 'payment', success_url: `${app.baseUrl}/topup/return` });
    expect(session.client_reference_id).toMatch(/^USR\d+NO/);

    const payload = mockStripe.completedEvent(session);
    const first = await sendWebhook(payload);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true });
    expect(await quota()).toBe(before + 3 * 500_000);
    const replays = await Promise.all(Array.from({ length: 20 }, () => sendWebhook(payload)));
    expect(replays.every((reply) => reply.status === 200)).toBe(true);
    expect(await quota()).toBe(before + 3 * 500_000);
    expect(await topUpLogs()).toBe(1);
    const history = await user.get('/api/user/topup/self');
    expect(history.body.data.items[0]).toMatchObject({ payment_method: 'stripe', money: '7.50', status: 'success' });
  });

  it("prices Stripe with the group's TopupGroupRatio, in US dollars, on the wallet's lookup and on the Checkout Session alike", async () => {
    await seed.setOption('TopupGroupRatio', JSON.stringify({ default: 0.8 }));
    try {
      expect((await user.post('/api/user/amount', { amount: 3, payment_method: 'stripe' })).body).toEqual({ success: true, message: '', data: '6.00' });
      // Without a method (or with an Epay one) the lookup keeps answering Epay's price.
      expect((await user.post('/api/user/amount', { amount: 3 })).body.data).toBe((3 * 7.3 * 0.8).toFixed(2));
      await checkout(3);
      const session = mockStripe.sessions[mockStripe.sessions.length - 1];
      expect(session.amount_total).toBe(600);
      const [order] = await dataSource.query(testSql('SELECT money FROM top_ups WHERE trade_no = ?'), [session.client_reference_id]);
      expect(order.money).toBe('6.00');
    } finally {
      await seed.setOption('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    }
  });

  it("answers a clear message, not a 500, when Stripe refuses to open the session (here: a wrong secret key)", async () => {
    const orders = async () => Number((await dataSource.query(testSql('SELECT COUNT(*) AS n FROM top_ups WHERE user_id = ?'), [user.id]))[0].n);
    const ordersBefore = await orders();
    await seed.setOption('StripeApiSecret', 'sk_test_not_the_right_one');
    try {
      const refused = await user.post('/api/user/pay', { amount: 3, payment_method: 'stripe' }).set('Accept-Language', 'en');
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual({ success: false, message: 'The payment provider returned no payment page; please try again', data: null });
      // The order Stripe never opened is not left in the history as awaiting payment.
      expect(await orders()).toBe(ordersBefore);
    } finally {
      await seed.setOption('StripeApiSecret', 'sk_test_gateway');
    }
  });

  it('credits nothing for a forged signature, a wrong amount or an unknown order', async () => {
    const before = await quota();
    const logsBefore = await topUpLogs();
    await checkout(4);
    const session = mockStripe.sessions[mockStripe.sessions.length - 1];
    const forged = await sendWebhook(mockStripe.completedEvent(session), 'whsec_a_forger_guess');
    expect(forged.status).toBe(400);
    const unsigned = await app.http.post('/api/user/stripe/webhook').set('content-type', 'application/json').send(mockStripe.completedEvent(session));
    expect(unsigned.status).toBe(400);
    expect((await sendWebhook(mockStripe.completedEvent(session, { amount_total: 1 }))).status).toBe(200);
    expect((await sendWebhook(mockStripe.completedEvent(session, { client_reference_id: 'USR1NOnosuchorder' }))).status).toBe(200);
    expect((await sendWebhook(mockStripe.completedEvent(session, { payment_status: 'unpaid' }))).status).toBe(200);
    expect(await quota()).toBe(before);
    expect(await topUpLogs()).toBe(logsBefore);
    const [row] = await dataSource.query(testSql('SELECT status FROM top_ups WHERE trade_no = ?'), [session.client_reference_id]);
    expect(row.status).toBe('pending');
  });
});
