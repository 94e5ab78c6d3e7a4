import { DataSource } from 'typeorm';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MockEpay } from './support/mock-epay';
import { RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp, testSql } from './support/test-app';

describe('wallet: Epay top-up', () => {
  let app: TestApp;
  let seed: RelaySeed;
  let epay: MockEpay;
  let dataSource: DataSource;
  let user: Session;

  beforeAll(async () => {
    epay = await new MockEpay('1001', 'merchant-secret-key').start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    dataSource = app.app.get(DataSource);
    await setupRoot(app);
    user = await registerUser(app, 'payer');
  });
  afterAll(async () => {
    await app.stop();
    await epay.stop();
  });

  async function configure(): Promise<void> {
    await seed.setOption('ServerAddress', app.baseUrl);
    await seed.setOption('PayAddress', epay.url);
    await seed.setOption('EpayId', epay.merchantId);
    await seed.setOption('EpayKey', epay.key);
    await seed.setOption('Price', 7.3);
    await seed.setOption('MinTopUp', 2);
  }

  async function quota(): Promise<number> {
    return (await seed.userQuota(user.id)).quota;
  }

  async function topUpLogs(): Promise<number> {
    const [row] = await dataSource.query(testSql('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 1'), [user.id]);
    return Number(row.n);
  }

  /** Creates an order through the API; answers the signed form. */
  async function order(amount: number): Promise<{ url: string; params: Record<string, string> }> {
    const response = await user.post('/api/user/pay', { amount, payment_method: 'alipay' });
    expect(response.body).toMatchObject({ success: true });
    return response.body.data;
  }

  it('refuses to take payment until the server address and the Epay settings are set', async () => {
    const response = await user.post('/api/user/pay', { amount: 5, payment_method: 'alipay' }).set('Accept-Language', 'en');
    expect(response.body).toMatchObject({ success: false, message: 'The administrator has not configured online payment' });
  });

  it('prices the amount with Price and TopupGroupRatio, and enforces MinTopUp', async () => {
    await configure();
    await seed.setOption('TopupGroupRatio', JSON.stringify({ default: 1.5 }));
    try {
      expect((await user.post('/api/user/amount', { amount: 10 })).body).toEqual({ success: true, message: '', data: '109.50' });
      const small = await user.post('/api/user/amount', { amount: 1 }).set('Accept-Language', 'en');
      expect(small.body).toMatchObject({ success: false, message: 'The top-up amount cannot be less than 2' });
      const method = await user.post('/api/user/pay', { amount: 5, payment_method: 'bitcoin' }).set('Accept-Language', 'en');
      expect(method.body.message).toBe('Payment method configuration error, please contact the administrator');
    } finally {
      await seed.setOption('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    }
  });

  it('signs the form, and credits once when the gateway confirms, even if the notice is replayed 20 times at once', async () => {
    await configure();
    const before = await quota();
    const form = await order(5);
    expect(form.url).toBe(`${epay.url}/submit.php`);
    expect(form.params).toMatchObject({ pid: '1001', type: 'alipay', money: '36.50', sign_type: 'MD5', notify_url: `${app.baseUrl}/api/user/epay/notify` });

    // The browser posts the form to the gateway, which notifies the merchant.
    const paid = await fetch(form.url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form.params).toString() });
    expect(paid.headers.get('location')).toMatch(new RegExp(`^${app.baseUrl}/topup/return\\?`));
    expect(epay.replies[epay.replies.length - 1]).toBe('success');
    expect(await quota()).toBe(before + 5 * 500_000);

    const notice = epay.notices[epay.notices.length - 1];
    const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => epay.deliver(`${app.baseUrl}/api/user/epay/notify`, notice, index % 2 ? 'POST' : 'GET')));
    expect(replies.every((reply) => reply === 'success')).toBe(true);
    expect(await quota()).toBe(before + 5 * 500_000);
    expect(await topUpLogs()).toBe(1);

    const history = await user.get('/api/user/topup/self?p=1&page_size=10');
    expect(history.body.data.items[0]).toMatchObject({ amount: 5, money: '36.50', status: 'success', quota: 2_500_000, payment_method: 'alipay' });
  });

  it('credits nothing for a forged signature, a wrong amount or an unknown order', async () => {
    await configure();
    const before = await quota();
    const logsBefore = await topUpLogs();
    const form = await order(3);
    const notify = `${app.baseUrl}/api/user/epay/notify`;
    expect(await epay.deliver(notify, epay.notice(form.params, {}, 'a-forger-guess'))).toBe('fail');
    expect(await epay.deliver(notify, epay.notice(form.params, { money: '0.01' }))).toBe('fail');
    expect(await epay.deliver(notify, epay.notice({ ...form.params, out_trade_no: 'USR1NOunknownorder' }))).toBe('fail');
    expect(await epay.deliver(notify, epay.notice(form.params, { trade_status: 'WAIT_BUYER_PAY' }))).toBe('fail');
    const tampered = { ...epay.notice(form.params), money: '999.00' };
    expect(await epay.deliver(notify, tampered, 'POST')).toBe('fail');
    expect(await quota()).toBe(before);
    expect(await topUpLogs()).toBe(logsBefore);
    const [row] = await dataSource.query(testSql('SELECT status FROM top_ups WHERE trade_no = ?'), [form.params.out_trade_no]);
    expect(row.status).toBe('pending');
  });

  it('limits how many orders one user opens: 20 in 20 minutes, then 429 and no row', async () => {
    await configure();
    const spammer = await registerUser(app, 'spammer');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await spammer.post('/api/user/pay', { amount: 2, payment_method: 'alipay' }).set('Accept-Language', 'en')).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    const refused = await spammer.post('/api/user/pay', { amount: 2, payment_method: 'alipay' }).set('Accept-Language', 'en');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, message: 'Too many top-up orders; please try again later', data: null });
    const [row] = await dataSource.query(testSql('SELECT COUNT(*) AS n FROM top_ups WHERE user_id = ?'), [spammer.id]);
    expect(Number(row.n)).toBe(20);
    // Another user is not held back by it.
    expect((await user.post('/api/user/pay', { amount: 2, payment_method: 'alipay' })).status).toBe(200);
  });
});
