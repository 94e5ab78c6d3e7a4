import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { CHANNEL_TESTS_JOB, MonitoringJobs } from '../src/modules/monitoring/monitoring.jobs';
import { setupRoot, type Session } from './support/accounts';
import { MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { startSmtpInbox, SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp, testSql } from './support/test-app';

const ENABLED = 1;
const MANUALLY_DISABLED = 2;
const AUTO_DISABLED = 3;

/** Balance endpoints of each provider, answering in its real wire shape. */
function balanceReply(request: ReceivedRequest) {
  const path = request.path.split('?')[0];
  const answers: Record<string, unknown> = {
    '/v1/dashboard/billing/subscription': { object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 120, soft_limit_usd: 100, system_hard_limit_usd: 120, access_until: 0 },
    '/v1/dashboard/billing/usage': { object: 'list', daily_costs: [], total_usage: 2550 },
    '/v1/credits': { data: { total_credits: 20, total_usage: 4.5 } },
    '/api/report/getUserOverview': { success: true, message: '', data: { totalPoints: 12.3, usedPoints: 3 } },
    '/v1/users/me/balance': { code: 0, data: { available_balance: 49.58, voucher_balance: 46.58, cash_balance: 3 }, scode: '0x0', status: true },
    '/v1/user/info': { code: 20000, message: 'OK', status: true, data: { id: 'u1', name: 'n', balance: '0.88', chargeBalance: '88.00', totalBalance: '88.88' } },
    '/user/balance': { is_available: true, balance_infos: [{ currency: 'USD', total_balance: '1.00', granted_balance: '0.00', topped_up_balance: '1.00' }, { currency: 'CNY', total_balance: '110.00', granted_balance: '10.00', topped_up_balance: '100.00' }] },
  };
  return path in answers ? { status: 200, json: answers[path] } : undefined;
}

describe('monitoring: scheduled channel tests, balances, notices', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let jobs: MonitoringJobs;
  let inbox: SmtpInbox;
  let failing = false;

  const runScheduledTests = () => jobs.testChannels(60_000);
  const status = async (id: number) => (await seed.channel(id)).status;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    app = await startTestApp({ CHANNEL_TEST_FREQUENCY: '1' });
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    jobs = app.app.get(MonitoringJobs);
    inbox = await startSmtpInbox({ user: 'mailer@example.test', pass: 'smtp-token' });
    const smtp = { SMTPServer: '127.0.0.1', SMTPPort: inbox.port, SMTPAccount: 'mailer@example.test', SMTPToken: 'smtp-token', SMTPFrom: 'noreply@example.test' };
    for (const [key, value] of Object.entries(smtp)) await seed.setOption(key, value);
    await app.app.get(DataSource).query(testSql('UPDATE users SET email = ? WHERE id = ?'), ['root@example.test', root.id]);
  });
  afterAll(async () => {
    await app.stop();
    await inbox.stop();
    await upstream.stop();
  });
  beforeEach(async () => {
    upstream.reset();
    failing = false;
    upstream.handler = (request) => balanceReply(request) ?? (failing ? { status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } } : undefined);
    await seed.deleteAllChannels();
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    await seed.setOption('AutomaticEnableChannelEnabled', true);
    await seed.setOption('ChannelDisableThreshold', 5);
  });

  it('registers the channel-test job every CHANNEL_TEST_FREQUENCY minutes on the master', () => {
    expect(app.app.get(SchedulerRegistry).getIntervals()).toContain(CHANNEL_TESTS_JOB);
  });

  it('disables a failing channel, re-enables it when the upstream recovers, and never touches a manually disabled one', async () => {
    const broken = await seed.createChannel({ name: 'broken', base_url: upstream.url, models: 'gpt-4o-mini' });
    const disabledMail = inbox.next('root@example.test');
    const manual = await seed.createChannel({ name: 'manual', base_url: upstream.url, models: 'gpt-4o-mini', status: MANUALLY_DISABLED });
    failing = true;
    await runScheduledTests();
    expect(await status(broken)).toBe(AUTO_DISABLED);
    expect(JSON.parse(String((await seed.channel(broken)).other_info)).status_reason).toContain('Incorrect API key');
    expect(await status(manual)).toBe(MANUALLY_DISABLED);
    expect((await disabledMail).subject).toBe(`通道「broken」（#${broken}）已被自动禁用`);

    failing = false;
    const enabledMail = inbox.next('root@example.test');
    await runScheduledTests();
    expect(await status(broken)).toBe(ENABLED);
    expect(await status(manual)).toBe(MANUALLY_DISABLED);
    expect((await seed.channel(broken)).test_time).toBeGreaterThan(0);
    expect(await enabledMail).toMatchObject({ subject: `通道「broken」（#${broken}）已被自动启用`, text: expect.stringContaining('test passed') });

    // Each automatic change is a system log row on the root user.
    const notices: Array<{ content: string; user_id: number }> = await app.app.get(DataSource).query("SELECT content, user_id FROM logs WHERE type = 4 AND content LIKE '通道%' ORDER BY id");
    expect(notices.map((row) => row.content)).toEqual([expect.stringContaining('自动禁用'), expect.stringContaining('自动启用')]);
    expect(notices.every((row) => Number(row.user_id) === root.id)).toBe(true);
  });

  it('keeps auto-disabled channels disabled when automatic enabling is off', async () => {
    await seed.setOption('AutomaticEnableChannelEnabled', false);
    const id = await seed.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini', status: AUTO_DISABLED });
    await runScheduledTests();
    expect(await status(id)).toBe(AUTO_DISABLED);
  });

  it('disables a channel slower than ChannelDisableThreshold, and records its response time', async () => {
    await seed.setOption('ChannelDisableThreshold', 1);
    const slow = await seed.createChannel({ name: 'slow', base_url: upstream.url, models: 'slow-model' });
    const quick = await seed.createChannel({ name: 'quick', base_url: upstream.url, models: 'gpt-4o-mini' });
    upstream.handler = (request) => (request.body.model === 'slow-model' ? { status: 200, json: { choices: [] }, delayMs: 1_500 } : undefined);
    await runScheduledTests();
    expect(await status(slow)).toBe(AUTO_DISABLED);
    expect(JSON.parse(String((await seed.channel(slow)).other_info)).status_reason).toContain('threshold');
    expect(await status(quick)).toBe(ENABLED);
    expect((await seed.channel(quick)).response_time).toBeGreaterThanOrEqual(0);
  });

  it('ends a round at its deadline even when an upstream hangs', async () => {
    const hung = await seed.createChannel({ base_url: upstream.url, models: 'hang-model' });
    upstream.handler = () => ({ status: 200, json: {}, delayMs: 2_000 });
    const started = Date.now();
    await jobs.testChannels(300);
    expect(Date.now() - started).toBeLessThan(1_800);
    expect(await status(hung)).toBe(ENABLED);
  });

  it('updates balances from each provider in its own answer shape, at the channel base URL', async () => {
    const expected: Record<number, number> = { 1: 94.5, 20: 15.5, 21: 12.3, 25: 49.58, 40: 88.88, 43: 110 };
    for (const [type, balance] of Object.entries(expected)) {
      const id = await seed.createChannel({ name: `type-${type}`, type: Number(type), base_url: upstream.url, models: 'gpt-4o-mini' });
      const answer = await root.get(`/api/channel/update_balance/${id}/`);
      expect(answer.body).toMatchObject({ success: true, balance, data: { balance } });
      const [row] = await app.app.get(DataSource).query(testSql('SELECT balance, balance_updated_time FROM channels WHERE id = ?'), [id]);
      expect(Number(row.balance)).toBeCloseTo(balance);
      expect(Number(row.balance_updated_time)).toBeGreaterThan(0);
    }
    const sent = upstream.requests.find((request) => request.path === '/api/report/getUserOverview');
    expect(sent?.headers['api-key']).toBe('sk-upstream-secret-key');
    expect(upstream.requests.find((request) => request.path === '/user/balance')?.headers.authorization).toBe('Bearer sk-upstream-secret-key');

    const all = await root.get('/api/channel/update_balance');
    expect(all.body).toMatchObject({ success: true, data: { updated: 6 } });
  });

  it('runs one balance round at a time: calls while it runs join it instead of querying every provider again', async () => {
    for (const name of ['slow-a', 'slow-b']) await seed.createChannel({ name, type: 1, base_url: upstream.url, models: 'gpt-4o-mini' });
    upstream.handler = (request) => {
      const reply = balanceReply(request);
      return reply && { ...reply, delayMs: 300 };
    };
    const answers = await Promise.all([root.get('/api/channel/update_balance'), root.get('/api/channel/update_balance'), root.get('/api/channel/update_balance')]);
    for (const answer of answers) expect(answer.body).toMatchObject({ success: true, data: { updated: 2 } });
    // Each OpenAI balance is two queries (subscription, usage): one round for two channels is four.
    expect(upstream.requests).toHaveLength(4);
  });

  it('says clearly when a type has no balance API, and disables a channel whose balance is at or below zero', async () => {
    const claude = await seed.createChannel({ type: 14, base_url: upstream.url, models: 'claude-3' });
    const unsupported = await root.get(`/api/channel/update_balance/${claude}/`).set('Accept-Language', 'en');
    expect(unsupported.body).toMatchObject({ success: false, message: 'This channel type has no balance API' });

    const empty = await seed.createChannel({ type: 43, base_url: upstream.url, models: 'deepseek-chat' });
    upstream.handler = () => ({ status: 200, json: { is_available: false, balance_infos: [{ currency: 'CNY', total_balance: '0.00', granted_balance: '0.00', topped_up_balance: '0.00' }] } });
    const answer = await root.get(`/api/channel/update_balance/${empty}/`);
    expect(answer.body).toMatchObject({ success: true, balance: 0 });
    expect(await status(empty)).toBe(AUTO_DISABLED);
  });

  it('keeps balance queries and their errors free of the channel key', async () => {
    const id = await seed.createChannel({ type: 20, base_url: upstream.url, models: 'x' });
    upstream.handler = () => ({ status: 401, json: { error: { message: 'bad key sk-upstream-secret-key' } } });
    const answer = await root.get(`/api/channel/update_balance/${id}/`).set('Accept-Language', 'en');
    expect(answer.body.success).toBe(false);
    expect(JSON.stringify(answer.body)).not.toContain('sk-upstream-secret-key');
  });
});
