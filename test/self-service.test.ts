import { DataSource } from 'typeorm';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { login, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

describe('self-service', () => {
  let app: TestApp;
  let root: Session;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app.stop());

  const userRow = (id: number) => dataSource.getRepository(UserEntity).findOneOrFail({ where: { id }, withDeleted: true });

  it('cannot change its own group, quota or role', async () => {
    const user = await registerUser(app, 'selfish');
    const response = await user.put('/api/user/self', { display_name: 'Me', group: 'vip', quota: 1e9, role: 100 });
    expect(response.body.success).toBe(true);
    expect(await userRow(user.id)).toMatchObject({ display_name: 'Me', group: 'default', quota: 0, role: 1 });
    const tooLong = await user.put('/api/user/self', { display_name: 'x'.repeat(21) }).set('Accept-Language', 'en');
    expect(tooLong.body).toMatchObject({ success: false, message: 'Display name must be at most 20 characters' });
  });

  it('changes the password, checks the current one when given, and signs out other browsers', async () => {
    const user = await registerUser(app, 'changer');
    const otherBrowser = await login(app, 'changer', 'user-pass-1');
    const wrong = await user.put('/api/user/self', { password: 'new-pass-22', original_password: 'nope-nope' }).set('Accept-Language', 'en');
    expect(wrong.body).toMatchObject({ success: false, message: 'The current password is wrong' });
    const short = await user.put('/api/user/self', { password: 'short' });
    expect(short.body.success).toBe(false);
    expect((await user.put('/api/user/self', { password: 'new-pass-22', original_password: 'user-pass-1' })).body.success).toBe(true);
    expect((await user.get('/api/user/self')).status).toBe(200);
    expect((await otherBrowser.get('/api/user/self')).status).toBe(401);
    await login(app, 'changer', 'new-pass-22');
  });

  it('saves notification settings, https webhooks only', async () => {
    const user = await registerUser(app, 'notified');
    const http = await user.put('/api/user/setting', { notify_type: 'webhook', webhook_url: 'http://example.com/hook' }).set('Accept-Language', 'en');
    expect(http.body).toMatchObject({ success: false, message: 'The webhook URL must start with https://' });
    const missing = await user.put('/api/user/setting', { notify_type: 'webhook', webhook_url: '' }).set('Accept-Language', 'en');
    expect(missing.body).toMatchObject({ success: false, message: 'Please fill in the webhook URL' });
    const badType = await user.put('/api/user/setting', { notify_type: 'pigeon' }).set('Accept-Language', 'en');
    expect(badType.body).toMatchObject({ success: false, message: 'The notification type must be email or webhook' });
    const negative = await user.put('/api/user/setting', { quota_warning_threshold: -5 });
    expect(negative.body.success).toBe(false);
    expect((await userRow(user.id)).setting).toBeNull();

    const ok = await user.put('/api/user/setting', {
      notify_type: 'webhook',
      webhook_url: 'https://example.com/hook',
      webhook_secret: 's3cret',
      quota_warning_threshold: 100000,
      accept_unset_model_ratio_model: true,
    });
    expect(ok.body.success).toBe(true);
    const setting = JSON.parse((await user.get('/api/user/self')).body.data.setting);
    expect(setting).toMatchObject({ notify_type: 'webhook', webhook_url: 'https://example.com/hook', quota_warning_threshold: 100000, accept_unset_model_ratio_model: true });
  });

  it('transfers referral quota atomically, at least one unit, never twice', async () => {
    const inviter = await registerUser(app, 'referrer');
    await dataSource.getRepository(UserEntity).update({ id: inviter.id }, { aff_quota: 1_200_000 });
    const small = await inviter.post('/api/user/aff_transfer', { quota: 499_999 }).set('Accept-Language', 'en');
    expect(small.body).toMatchObject({ success: false, message: 'The minimum transfer is 500000' });
    const fractional = await inviter.post('/api/user/aff_transfer', { quota: 500_000.5 });
    expect(fractional.body.success).toBe(false);

    // Three concurrent transfers of 500000 against 1.2M: exactly two succeed.
    const results = await Promise.all([1, 2, 3].map(() => inviter.post('/api/user/aff_transfer', { quota: 500_000 })));
    expect(results.filter((r) => r.body.success)).toHaveLength(2);
    expect(await userRow(inviter.id)).toMatchObject({ aff_quota: 200_000, quota: 1_000_000 });
  });

  it('lists the groups a user may use, with ratios', async () => {
    const user = await registerUser(app, 'grouper');
    const groups = (await user.get('/api/user/self/groups')).body.data;
    expect(groups).toEqual({ default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 1 } });
    expect((await root.get('/api/group/')).body.data).toEqual(['default', 'vip', 'svip']);

    // A GroupGroupRatio entry for the user's own group is the ratio they are billed at there, so it is the one shown.
    await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 2, svip: 3 }) });
    await root.put('/api/option/', { key: 'GroupGroupRatio', value: JSON.stringify({ default: { vip: 0.5 } }) });
    try {
      expect((await user.get('/api/user/self/groups')).body.data).toEqual({ default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 0.5 } });
    } finally {
      await root.put('/api/option/', { key: 'GroupGroupRatio', value: '{}' });
      await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 1, svip: 1 }) });
    }
  });

  it('deletes its own account softly, and root cannot', async () => {
    const user = await registerUser(app, 'leaver');
    expect((await user.delete('/api/user/self')).body.success).toBe(true);
    expect((await userRow(user.id)).deleted_at).not.toBeNull();
    expect((await user.get('/api/user/self')).status).toBe(401);
    const rootDelete = await root.delete('/api/user/self').set('Accept-Language', 'en');
    expect(rootDelete.body).toMatchObject({ success: false, message: 'The super administrator cannot delete their own account' });
  });
});
