import { DataSource } from 'typeorm';
import { queryAnyDialect } from '../src/database/dialect';
import { openaiClient, RelayTestbed, startRelayTestbed } from './support/mock-upstream-seed';

/**
 * A channel row has several writers: the admin's editor (its settings), the ledger (used_quota,
 * as calls settle), the balance job (balance) and the probes (response_time). An edit must write
 * only what it changes: one that saved the whole row it had read would put back the counters it
 * read, losing what the others wrote in between.
 */
describe('channel edits during traffic and balance updates', () => {
  let bed: RelayTestbed;
  /** What the mock provider reports as the account's spend, in USD: it grows with every balance query. */
  let totalUsage = 0;

  beforeAll(async () => {
    bed = await startRelayTestbed();
    bed.upstream.handler = (request) => {
      const path = request.path.split('?')[0];
      if (path === '/v1/dashboard/billing/subscription') return { status: 200, json: { object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 1000, soft_limit_usd: 900, system_hard_limit_usd: 1000, access_until: 0 } };
      if (path === '/v1/dashboard/billing/usage') return { status: 200, json: { object: 'list', daily_costs: [], total_usage: ++totalUsage * 100 } };
      return undefined;
    };
  });
  afterAll(() => bed.stop());

  it('loses no used quota and no balance', async () => {
    const { app, seed, root } = bed;
    const channelId = await seed.createChannel({ name: 'busy', base_url: bed.upstream.url, models: 'gpt-4o-mini' });
    await seed.setUserQuota(root.id, 1_000_000_000);
    const token = await seed.createToken(root.id, { remain_quota: 1_000_000_000 });
    const client = openaiClient(app, token.apiKey);

    let running = true;
    let calls = 0;
    let edits = 0;
    let lastBalance = 0;
    const caller = async () => {
      while (running) {
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
        calls++;
      }
    };
    const editor = async () => {
      while (running) {
        // What the console's editor sends: every field, the key left blank to keep it.
        const answer = await root.put('/api/channel/', { id: channelId, name: 'busy', type: 1, key: '', base_url: bed.upstream.url, models: 'gpt-4o-mini', group: 'default', weight: edits % 5, priority: 0 });
        expect(answer.body).toEqual(expect.objectContaining({ message: '', success: true }));
        edits++;
      }
    };
    const balances = async () => {
      while (running) {
        const answer = await root.get(`/api/channel/update_balance/${channelId}/`);
        expect(answer.body).toMatchObject({ success: true });
        lastBalance = answer.body.balance;
      }
    };
    const work = Promise.all([caller(), caller(), caller(), caller(), editor(), editor(), balances()]);
    // Counted, not timed: a busy machine must not make the test thinner.
    while (calls < 60 || edits < 20) await new Promise((resolve) => setTimeout(resolve, 50));
    running = false;
    await work;
    await seed.flush();

    const logs = await seed.consumeLogs({ tokenId: token.id });
    const [row] = await queryAnyDialect<Record<string, unknown>>(app.app.get(DataSource), 'SELECT used_quota, balance, weight FROM channels WHERE id = ?', [channelId]);
    expect(logs).toHaveLength(calls);
    expect(Number(row.used_quota)).toBe(logs.reduce((sum, log) => sum + log.quota, 0));
    expect(Number(row.balance)).toBeCloseTo(lastBalance);
  });
});
