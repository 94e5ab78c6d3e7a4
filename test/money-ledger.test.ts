import { DataSource } from 'typeorm';
import { login, registerUser, setupRoot, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp, testSql } from './support/test-app';

/** Mock usage (12 prompt, 7 completion) at ratio 1, completion ratio 1: 19 quota a call. */
const COST = 19;

describe('money: one ledger owns every balance', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let dataSource: DataSource;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    dataSource = app.app.get(DataSource);
    root = await setupRoot(app);
    await seed.setOption('ModelRatio', JSON.stringify({ 'ledger-model': 1 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'ledger-model': 1 }));
    await seed.setOption('PreConsumedQuota', 0);
    await seed.createChannel({ base_url: upstream.url, models: 'ledger-model' });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  /** Every movement of users.quota is a log row: credits (types 1, 3, 4) minus consumption (type 2). */
  async function loggedMovement(userId: number): Promise<number> {
    const rows: Array<{ type: number; quota: number }> = await dataSource.query(testSql('SELECT type, quota FROM logs WHERE user_id = ?'), [userId]);
    return rows.reduce((sum, row) => sum + (Number(row.type) === 2 ? -Number(row.quota) : Number(row.quota)), 0);
  }

  it('keeps every balance equal to its start plus the logged movements while profile, password, settings, token and admin edits race with settling calls', async () => {
    const user = await registerUser(app, 'busy-user', 'busy-pass-1');
    await seed.setUserQuota(user.id, 5_000_000);
    const startLogged = await loggedMovement(user.id);
    const token = await seed.createToken(user.id, { remain_quota: 2_000_000 });
    const client = openaiClient(app, token.apiKey);

    let traffic = true;
    let calls = 0;
    const callers = Array.from({ length: 8 }, async () => {
      while (traffic) {
        await client.chat.completions.create({ model: 'ledger-model', messages: [{ role: 'user', content: 'hi' }] });
        calls++;
      }
    });

    let session = user;
    let adminDelta = 0;
    for (let round = 0; round < 3; round++) {
      const profile = await session.put('/api/user/self', { display_name: `Busy ${round}` });
      expect(profile.body.success).toBe(true);
      const password = await session.put('/api/user/self', { password: `busy-pass-${round + 2}`, original_password: `busy-pass-${round + 1}` });
      expect(password.body.success).toBe(true);
      session = await login(app, 'busy-user', `busy-pass-${round + 2}`);
      const setting = await session.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: 1000 + round });
      expect(setting.body.success).toBe(true);
      // The token form sends back the quota it loaded, unchanged, with a new name.
      const loadedToken = (await session.get(`/api/token/${token.id}`)).body.data;
      const rename = await session.put('/api/token/', { id: token.id, name: `renamed-${round}`, remain_quota: loadedToken.remain_quota, original_remain_quota: loadedToken.remain_quota });
      expect(rename.body.success).toBe(true);
      // The admin form likewise: it adds 1000 to the balance it loaded.
      const loadedUser = (await root.get(`/api/user/${user.id}`)).body.data;
      const admin = await root.put('/api/user/', { id: user.id, quota: loadedUser.quota + 1000, original_quota: loadedUser.quota });
      expect(admin.body.success).toBe(true);
      adminDelta += 1000;
    }
    traffic = false;
    await Promise.all(callers);
    await seed.flush();

    expect(calls).toBeGreaterThan(0);
    const logs = await seed.consumeLogs({ userId: user.id });
    expect(logs).toHaveLength(calls);
    const spent = logs.reduce((sum, log) => sum + log.quota, 0);
    expect(spent).toBe(calls * COST);
    const after = await seed.userQuota(user.id);
    expect(after.quota).toBe(5_000_000 - spent + adminDelta);
    expect(after.used_quota).toBe(spent);
    expect(after.quota - 5_000_000).toBe((await loggedMovement(user.id)) - startLogged);
    const tokenAfter = await seed.tokenQuota(token.id);
    expect(tokenAfter.remain_quota).toBe(2_000_000 - spent);
    expect(tokenAfter.used_quota).toBe(spent);
    const manage: Array<{ content: string; quota: number }> = await dataSource.query(testSql('SELECT content, quota FROM logs WHERE user_id = ? AND type = 3 ORDER BY id'), [user.id]);
    expect(manage).toHaveLength(3);
    expect(manage.every((row) => Number(row.quota) === 1000 && row.content.startsWith('管理员将用户额度从'))).toBe(true);
  });

  it('says in the manage log row when the balance moved while the admin form was open, and applies the difference', async () => {
    const user = await registerUser(app, 'moved-user');
    await seed.setUserQuota(user.id, 10_000);
    const loaded = (await root.get(`/api/user/${user.id}`)).body.data.quota as number;
    await seed.setUserQuota(user.id, 9_000);
    const response = await root.put('/api/user/', { id: user.id, quota: 15_000, original_quota: loaded });
    expect(response.body.success).toBe(true);
    expect((await seed.userQuota(user.id)).quota).toBe(14_000);
    const [row] = await dataSource.query(testSql('SELECT content, quota FROM logs WHERE user_id = ? AND type = 3'), [user.id]);
    expect(Number(row.quota)).toBe(5_000);
    expect(row.content).toBe('管理员将用户额度从 10000 修改为 15000（编辑期间余额已变为 9000，按差额 +5000 调整）');
  });

  it('credits new-user, invitee and inviter rewards and the aff transfer through logged ledger rows', async () => {
    await seed.setOption('QuotaForNewUser', 700);
    await seed.setOption('QuotaForInvitee', 300);
    await seed.setOption('QuotaForInviter', 600_000);
    try {
      const inviter = await registerUser(app, 'inviter-x');
      const code = (await inviter.get('/api/user/aff')).body.data as string;
      const invitee = await registerUser(app, 'invitee-x', 'user-pass-1', { aff_code: code });
      expect((await seed.userQuota(invitee.id)).quota).toBe(1000);
      expect(await loggedMovement(invitee.id)).toBe(1000);
      const [aff] = await dataSource.query(testSql('SELECT quota, aff_quota, aff_history_quota, aff_count FROM users WHERE id = ?'), [inviter.id]);
      expect([aff.quota, aff.aff_quota, aff.aff_history_quota, aff.aff_count].map(Number)).toEqual([700, 600_000, 600_000, 1]);
      const transfer = await inviter.post('/api/user/aff_transfer', { quota: 500_000 });
      expect(transfer.body.success).toBe(true);
      expect((await seed.userQuota(inviter.id)).quota).toBe(500_700);
      expect(await loggedMovement(inviter.id)).toBe(500_700);
      const [row] = await dataSource.query(testSql('SELECT type, other FROM logs WHERE user_id = ? AND content LIKE ?'), [inviter.id, '%邀请用户%']);
      expect(Number(row.type)).toBe(4);
      expect(JSON.parse(row.other)).toMatchObject({ reason: 'invite_reward', aff_quota: 600_000 });
    } finally {
      await seed.setOption('QuotaForNewUser', 0);
      await seed.setOption('QuotaForInvitee', 0);
      await seed.setOption('QuotaForInviter', 0);
    }
  });

  it('credits QuotaForNewUser, with its log row, to an account an administrator creates too (as new-api does)', async () => {
    await seed.setOption('QuotaForNewUser', 800);
    try {
      expect((await root.post('/api/user/', { username: 'made-by-root', password: 'user-pass-1' })).body.success).toBe(true);
      const made = await login(app, 'made-by-root', 'user-pass-1');
      expect((await seed.userQuota(made.id)).quota).toBe(800);
      expect(await loggedMovement(made.id)).toBe(800);
      const [row] = await dataSource.query(testSql('SELECT type, content FROM logs WHERE user_id = ?'), [made.id]);
      expect([Number(row.type), row.content]).toEqual([4, '新用户注册赠送 800 额度']);
    } finally {
      await seed.setOption('QuotaForNewUser', 0);
    }
  });
});
