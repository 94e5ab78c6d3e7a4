import { DataSource } from 'typeorm';
import { AuditJobs } from '../src/modules/audit/audit.jobs';
import { createAdmin, registerUser, setupRoot, type Session } from './support/accounts';
import { startTestApp, TestApp, testSql } from './support/test-app';
import type { AuditLogView } from '../src/modules/audit/audit.wire';

const SECRETS = { smtp: 'smtp-audit-secret-4711', channelKey: 'sk-audit-channel-key-aaaa1111', newChannelKey: 'sk-audit-channel-key-bbbb2222', password: 'new-alice-pass-99' };

async function auditRows(root: Session, query = ''): Promise<AuditLogView[]> {
  const response = await root.get(`/api/audit/?page_size=100${query}`);
  expect(response.body.success).toBe(true);
  return response.body.data.items as AuditLogView[];
}

describe('admin audit log', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;
  const redemptionKeys: string[] = [];
  let channelId: number;
  let redemptionIds: number[];

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'auditadmin');
    alice = await registerUser(app, 'auditalice');
  });
  afterAll(async () => {
    await app.stop();
  });

  it('records each audited action with who, from where, what and the changed fields, secrets only as changed', async () => {
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: SECRETS.smtp })).body.success).toBe(true);
    expect((await admin.put('/api/option/', { key: 'RetryTimes', value: '3' })).body.success).toBe(true);
    // Saving a value unchanged is no change.
    expect((await admin.put('/api/option/', { key: 'RetryTimes', value: '3' })).body.success).toBe(true);

    const created = await admin.post('/api/channel/', { name: 'audited', type: 1, key: SECRETS.channelKey, models: 'gpt-4o', group: 'default' });
    expect(created.body.success).toBe(true);
    channelId = created.body.data[0].id;
    expect((await admin.put('/api/channel/', { id: channelId, key: SECRETS.newChannelKey, priority: 5 })).body.success).toBe(true);
    expect((await admin.delete(`/api/channel/${channelId}`)).body.success).toBe(true);

    expect((await admin.put('/api/user/', { id: alice.id, display_name: 'Alice A', password: SECRETS.password, quota: 5000, original_quota: 0 })).body.success).toBe(true);
    expect((await admin.post('/api/user/manage', { id: alice.id, action: 'disable' })).body.success).toBe(true);

    const codes = await admin.post('/api/redemption/', { name: 'audit code', quota: 1000, count: 2 });
    expect(codes.body.success).toBe(true);
    redemptionKeys.push(...(codes.body.data as string[]));
    const listed = await admin.get('/api/redemption/?page_size=100');
    redemptionIds = (listed.body.data.items as Array<{ id: number; name: string }>).filter((code) => code.name === 'audit code').map((code) => code.id).sort((a, b) => a - b);
    expect((await admin.put('/api/redemption/', { id: redemptionIds[0], name: 'renamed code', quota: 2000 })).body.success).toBe(true);
    expect((await admin.delete(`/api/redemption/${redemptionIds[1]}`)).body.success).toBe(true);

    const rows = await auditRows(root);
    const summary = rows.map((row) => [row.actor_username, row.entity, row.entity_id, row.action]).reverse();
    expect(summary).toEqual([
      ['root', 'user', String(admin.id), 'promote'],
      ['root', 'option', 'SMTPToken', 'update'],
      ['auditadmin', 'option', 'RetryTimes', 'update'],
      ['auditadmin', 'channel', String(channelId), 'create'],
      ['auditadmin', 'channel', String(channelId), 'update'],
      ['auditadmin', 'channel', String(channelId), 'delete'],
      ['auditadmin', 'user', String(alice.id), 'update'],
      ['auditadmin', 'user', String(alice.id), 'update'],
      ['auditadmin', 'user', String(alice.id), 'disable'],
      ['auditadmin', 'redemption', redemptionIds.join(','), 'create'],
      ['auditadmin', 'redemption', String(redemptionIds[0]), 'update'],
      ['auditadmin', 'redemption', String(redemptionIds[1]), 'delete'],
    ]);
    const byAction = (entity: string, action: string, index = 0) => rows.filter((row) => row.entity === entity && row.action === action).reverse()[index];
    expect(byAction('option', 'update').changes).toEqual({ value: { changed: true } });
    expect(byAction('option', 'update', 1).changes).toEqual({ value: { from: '0', to: '3' } });
    expect(byAction('channel', 'create').changes).toMatchObject({ name: { from: null, to: 'audited' }, models: { from: null, to: 'gpt-4o' }, key: { changed: true } });
    expect(byAction('channel', 'update').changes).toEqual({ priority: { from: 0, to: 5 }, key: { changed: true } });
    expect(byAction('user', 'update').changes).toEqual({ display_name: { from: 'auditalice', to: 'Alice A' }, password: { changed: true } });
    expect(byAction('user', 'disable').changes).toEqual({ status: { from: 1, to: 2 } });
    expect(byAction('user', 'promote').changes).toEqual({ role: { from: 1, to: 10 } });
    expect(byAction('redemption', 'create').changes).toEqual({ name: { from: null, to: 'audit code' }, quota: { from: null, to: 1000 }, count: { from: null, to: 2 } });
    expect(byAction('redemption', 'update').changes).toEqual({ name: { from: 'audit code', to: 'renamed code' }, quota: { from: 1000, to: 2000 } });
    for (const row of rows) {
      expect(row.actor_ip).toMatch(/127\.0\.0\.1/);
      expect(row.created_at).toBeGreaterThan(0);
    }

    // The quota change went through the ledger; its audit row names the log row it wrote.
    const quotaRow = byAction('user', 'update', 1);
    expect(quotaRow.changes).toEqual({ quota: { from: 0, to: 5000 } });
    const [logRow] = await app.app.get(DataSource).query(testSql('SELECT id, type, quota, user_id FROM logs WHERE user_id = ? AND type = 3'), [alice.id]);
    expect(quotaRow.log_id).toBe(Number(logRow.id));
    expect(Number(logRow.quota)).toBe(5000);

    const text = JSON.stringify(rows);
    for (const secret of [...Object.values(SECRETS), ...redemptionKeys]) expect(text).not.toContain(secret);
  });

  it('is root only, and filters by actor, entity and date', async () => {
    expect((await admin.get('/api/audit/')).status).toBe(403);
    expect((await alice.get('/api/audit/')).status).toBe(401);
    expect((await auditRows(root, '&actor=root')).map((row) => row.entity_id)).toEqual(['SMTPToken', String(admin.id)]);
    expect((await auditRows(root, `&actor_id=${admin.id}&entity=channel`)).map((row) => row.action)).toEqual(['delete', 'update', 'create']);
    const now = Math.floor(Date.now() / 1000);
    expect(await auditRows(root, `&start_timestamp=${now + 100}`)).toEqual([]);
    expect((await auditRows(root, `&start_timestamp=${now - 600}&end_timestamp=${now + 10}`)).length).toBe(12);
    const paged = await root.get('/api/audit/?p=2&page_size=5');
    expect(paged.body.data).toMatchObject({ page: 2, page_size: 5, total: 12 });
    expect(paged.body.data.items).toHaveLength(5);
    const bad = await root.get('/api/audit/?entity=nothing').set('Accept-Language', 'en');
    expect(bad.body).toMatchObject({ success: false, message: expect.stringContaining('audited entity') });
  });

  it('keeps rows AuditLogRetentionDays days (root sets it; 0 keeps them all)', async () => {
    const dataSource = app.app.get(DataSource);
    const jobs = app.app.get(AuditJobs);
    const dayAgo = Math.floor(Date.now() / 1000) - 2 * 86_400;
    await dataSource.query(testSql('UPDATE audit_logs SET created_at = ? WHERE entity = ?'), [dayAgo, 'redemption']);
    await jobs.applyRetention();
    expect(await auditRows(root, '&entity=redemption')).toHaveLength(3);
    expect((await admin.put('/api/option/', { key: 'AuditLogRetentionDays', value: '1' })).body.success).toBe(false);
    expect((await root.put('/api/option/', { key: 'AuditLogRetentionDays', value: '1' })).body.success).toBe(true);
    await jobs.applyRetention();
    expect(await auditRows(root, '&entity=redemption')).toEqual([]);
    expect((await auditRows(root, '&entity=channel')).length).toBe(3);
  });
});
