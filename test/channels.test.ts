import { DataSource } from 'typeorm';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp, testSql } from './support/test-app';

interface AbilityRow {
  group: string;
  model: string;
  channel_id: number;
  enabled: boolean | number;
  priority: number | string;
  weight: number;
  tag: string | null;
}

describe('channel management', () => {
  let app: TestApp;
  let db: DataSource;
  let admin: Session;
  let user: Session;

  const baseChannel = { name: 'openai-main', type: 1, key: 'sk-upstream-secret-1', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' };

  async function createChannel(body: object): Promise<{ id: number }[]> {
    const response = await admin.post('/api/channel/', body).set('Accept-Language', 'en');
    if (!response.body.success) throw new Error(`create failed: ${response.body.message}`);
    return response.body.data;
  }

  async function abilitiesOf(channelId: number): Promise<AbilityRow[]> {
    return db.query(testSql(`SELECT * FROM abilities WHERE channel_id = ? ORDER BY ${db.driver.escape('group')}, model`), [channelId]);
  }

  const snapshot = async () => ({
    channels: await db.query('SELECT * FROM channels ORDER BY id'),
    abilities: await db.query('SELECT * FROM abilities ORDER BY channel_id, model'),
  });

  beforeAll(async () => {
    app = await startTestApp();
    db = app.app.get(DataSource);
    const root = await setupRoot(app);
    admin = await createAdmin(app, root, 'chadmin');
    user = await registerUser(app, 'chuser');
  });
  afterAll(() => app.stop());

  it('creates a channel, encrypts the key at rest and never returns it', async () => {
    const [created] = await createChannel({ ...baseChannel, base_url: 'https://api.example.com/', model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}' });
    const [row] = await db.query(testSql('SELECT * FROM channels WHERE id = ?'), [created.id]);
    expect(row.key).not.toContain('sk-upstream-secret-1');
    expect(row.key).toMatch(/^enc:v1:/);
    expect(row.base_url).toBe('https://api.example.com');

    const got = await admin.get(`/api/channel/${created.id}`);
    expect(got.body).toMatchObject({ success: true, data: { id: created.id, name: 'openai-main', key: '', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' } });
    const list = await admin.get('/api/channel/?p=1&page_size=10');
    const search = await admin.get('/api/channel/search?keyword=openai');
    for (const body of [got.body, list.body, search.body, created]) expect(JSON.stringify(body)).not.toContain('sk-upstream-secret-1');
    expect(list.body.data).toMatchObject({ page: 1, page_size: 10, total: 1 });
    expect(list.body.data.items[0].key).toBe('');

    const abilities = await abilitiesOf(created.id);
    expect(abilities.map((a) => `${a.group}/${a.model}`)).toEqual(['default/gpt-4o', 'default/gpt-4o-mini', 'vip/gpt-4o', 'vip/gpt-4o-mini']);
    expect(abilities.every((a) => Boolean(Number(a.enabled)))).toBe(true);
  });

  it('creates one channel per key in batch mode', async () => {
    const created = await createChannel({ ...baseChannel, name: 'batch', mode: 'batch', key: 'key-a\n\n key-b \r\nkey-c\n' });
    expect(created).toHaveLength(3);
    const rows: { key: string }[] = await db.query(testSql('SELECT * FROM channels WHERE name = ?'), ['batch']);
    expect(rows).toHaveLength(3);
    for (const channel of created) expect(await abilitiesOf(channel.id)).toHaveLength(4);
    // A single-mode key with several lines stays one channel (multi-line keys exist, e.g. service accounts).
    expect(await createChannel({ ...baseChannel, name: 'single-multiline', key: 'line1\nline2' })).toHaveLength(1);
    // Vertex keys are JSON key files: batch mode takes a JSON array of them, one channel each.
    const keyFiles = JSON.stringify([{ type: 'service_account', project_id: 'a' }, { type: 'service_account', project_id: 'b' }], null, 2);
    expect(await createChannel({ ...baseChannel, type: 41, name: 'vertex-batch', mode: 'batch', key: keyFiles })).toHaveLength(2);
  });

  it('drops blank and repeated models and groups, ignoring case as MySQL does', async () => {
    const [channel] = await createChannel({ ...baseChannel, name: 'dupes', models: 'gpt-4o, GPT-4o ,,gpt-4o-mini', group: 'vip,VIP, default' });
    expect((await admin.get(`/api/channel/${channel.id}`)).body.data).toMatchObject({ models: 'gpt-4o,gpt-4o-mini', group: 'vip,default' });
    expect(await abilitiesOf(channel.id)).toHaveLength(4);
    await admin.delete(`/api/channel/${channel.id}`);
  });

  it('defaults iFlytek Spark to v2.1 and the group to default', async () => {
    const [spark] = await createChannel({ name: 'spark', type: 18, key: 'k', models: 'SparkDesk', group: '' });
    const got = await admin.get(`/api/channel/${spark.id}`);
    expect(got.body.data).toMatchObject({ other: 'v2.1', group: 'default' });
  });

  it('rejects invalid channels with a message and writes nothing', async () => {
    const before = await snapshot();
    const cases: [object, string][] = [
      [{ ...baseChannel, name: '' }, 'Please fill in the channel name and key'],
      [{ ...baseChannel, key: '' }, 'Please fill in the channel name and key'],
      [{ ...baseChannel, name: '   ' }, 'Please fill in the channel name and key'],
      [{ type: 1, models: 'gpt-4o' }, 'Please fill in the channel name and key'],
      [{ ...baseChannel, models: '' }, 'Please select at least one model'],
      [{ ...baseChannel, models: ' , ,' }, 'Please select at least one model'],
      [{ ...baseChannel, type: 9999 }, 'Unsupported channel type'],
      [{ ...baseChannel, type: 'openai' }, 'Unsupported channel type'],
      [{ ...baseChannel, model_mapping: '{not json' }, 'Model mapping must be a valid JSON object of strings to strings'],
      [{ ...baseChannel, model_mapping: '{"a": 1}' }, 'Model mapping must be a valid JSON object of strings to strings'],
      [{ ...baseChannel, model_mapping: '["a"]' }, 'Model mapping must be a valid JSON object of strings to strings'],
      [{ ...baseChannel, status_code_mapping: 'nope' }, 'status_code_mapping must be a valid JSON object'],
      [{ ...baseChannel, setting: '42' }, 'setting must be a valid JSON object'],
      [{ ...baseChannel, param_override: '{' }, 'param_override must be a valid JSON object'],
      [{ ...baseChannel, priority: -1000 }, 'Priority must be an integer of at least -999'],
      [{ ...baseChannel, priority: 1.5 }, 'Priority must be an integer of at least -999'],
      [{ ...baseChannel, priority: '3' }, 'Priority must be an integer of at least -999'],
      [{ ...baseChannel, weight: -1 }, 'Weight must be a non-negative integer'],
      [{ ...baseChannel, weight: 0.5 }, 'Weight must be a non-negative integer'],
      [{ ...baseChannel, name: 'x'.repeat(256) }, 'The channel name is too long'],
      [{ ...baseChannel, models: `${'m'.repeat(256)},gpt-4o` }, `Model name too long: ${'m'.repeat(40)}`],
      [{ ...baseChannel, group: `${'g'.repeat(65)}` }, `Group name too long: ${'g'.repeat(40)}`],
      [{ ...baseChannel, tag: 't'.repeat(65) }, 'The tag is too long'],
      [{ ...baseChannel, base_url: 'ftp://host' }, 'The base URL must start with http:// or https://'],
      [{ ...baseChannel, mode: 'many' }, 'The mode must be single or batch'],
      [{ ...baseChannel, key: 'k'.repeat(9000) }, 'The channel key is too long'],
      [{ ...baseChannel, auto_ban: 2 }, 'auto_ban must be 0 or 1'],
    ];
    for (const [body, message] of cases) {
      const response = await admin.post('/api/channel/', body).set('Accept-Language', 'en').expect(200);
      expect({ body, response: response.body }).toMatchObject({ body, response: { success: false, message } });
    }
    const zh = await admin.post('/api/channel/', { ...baseChannel, name: '' });
    expect(zh.body.message).toBe('请填写渠道名称和渠道密钥');
    expect(await snapshot()).toEqual(before);
  });

  it('edits a channel: blank key keeps the old one, abilities follow models, groups, priority and status', async () => {
    const [channel] = await createChannel({ ...baseChannel, name: 'edit-me', key: 'original-key' });
    const [{ key: storedKey }] = await db.query(testSql('SELECT * FROM channels WHERE id = ?'), [channel.id]);

    const edited = await admin.put('/api/channel/', { id: channel.id, name: 'edited', key: '', models: 'claude-3-5-sonnet-20241022', group: 'svip', priority: 5, weight: 3, tag: 'team-a' });
    expect(edited.body).toMatchObject({ success: true, data: { name: 'edited', key: '', priority: 5, weight: 3, tag: 'team-a' } });
    const [after] = await db.query(testSql('SELECT * FROM channels WHERE id = ?'), [channel.id]);
    expect(after.key).toBe(storedKey);
    let abilities = await abilitiesOf(channel.id);
    expect(abilities).toHaveLength(1);
    expect(abilities[0]).toMatchObject({ group: 'svip', model: 'claude-3-5-sonnet-20241022', weight: 3, tag: 'team-a' });
    expect(Number(abilities[0].priority)).toBe(5);

    // A status patch alone.
    expect((await admin.put('/api/channel/', { id: channel.id, status: 2 })).body.success).toBe(true);
    abilities = await abilitiesOf(channel.id);
    expect(Number(abilities[0].enabled)).toBe(0);
    expect((await admin.get(`/api/channel/${channel.id}`)).body.data).toMatchObject({ status: 2, name: 'edited', models: 'claude-3-5-sonnet-20241022' });

    // Priority and weight patches; a new key replaces the stored one.
    expect((await admin.put('/api/channel/', { id: channel.id, priority: -999, weight: 0, key: 'rotated-key', status: 1 })).body.success).toBe(true);
    abilities = await abilitiesOf(channel.id);
    expect(abilities[0]).toMatchObject({ weight: 0 });
    expect(Number(abilities[0].priority)).toBe(-999);
    expect(Number(abilities[0].enabled)).toBe(1);
    const [rotated] = await db.query(testSql('SELECT * FROM channels WHERE id = ?'), [channel.id]);
    expect(rotated.key).not.toBe(storedKey);
    expect(rotated.key).not.toContain('rotated-key');
  });

  it('rejects invalid edits without changing anything', async () => {
    const [channel] = await createChannel({ ...baseChannel, name: 'stable' });
    const before = await snapshot();
    const cases: [object, string][] = [
      [{ id: channel.id, name: '' }, 'The channel name cannot be empty'],
      [{ id: channel.id, models: '' }, 'Please select at least one model'],
      [{ id: channel.id, model_mapping: 'x' }, 'Model mapping must be a valid JSON object of strings to strings'],
      [{ id: channel.id, priority: -1000 }, 'Priority must be an integer of at least -999'],
      [{ id: channel.id, weight: -5 }, 'Weight must be a non-negative integer'],
      [{ id: channel.id, status: 7 }, 'The channel status must be 1 (enabled), 2 (disabled) or 3 (auto-disabled)'],
      [{ id: channel.id, type: 6 }, 'Unsupported channel type'],
      [{ id: 999999, name: 'ghost' }, 'Channel not found, refresh and retry'],
      [{ name: 'no id' }, 'Invalid id'],
    ];
    for (const [body, message] of cases) {
      const response = await admin.put('/api/channel/', body).set('Accept-Language', 'en');
      expect({ body, response: response.body }).toMatchObject({ body, response: { success: false, message } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('searches by keyword, group and model, treating % and _ literally', async () => {
    await createChannel({ ...baseChannel, name: '100%_real', models: 'deepseek-chat', group: 'search-g' });
    await createChannel({ ...baseChannel, name: '100xxreal', models: 'deepseek-reasoner', group: 'default' });
    const names = async (query: string) => ((await admin.get(`/api/channel/search?${query}`)).body.data.items as { name: string }[]).map((c) => c.name).sort();
    expect(await names(`keyword=${encodeURIComponent('%_')}`)).toEqual(['100%_real']);
    expect(await names(`keyword=${encodeURIComponent('100%')}`)).toEqual(['100%_real']);
    expect(await names('group=search-g')).toEqual(['100%_real']);
    expect(await names('model=deepseek')).toEqual(['100%_real', '100xxreal']);
    expect(await names('model=deepseek&group=default')).toEqual(['100xxreal']);
    expect(await names(`keyword=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
    const byId = await admin.get('/api/channel/search?keyword=1');
    expect(byId.body.data.items.some((c: { id: number }) => c.id === 1)).toBe(true);
  });

  it('orders by priority, or by id with id_sort', async () => {
    const [low] = await createChannel({ ...baseChannel, name: 'order-low', priority: -5, group: 'order-g' });
    const [high] = await createChannel({ ...baseChannel, name: 'order-high', priority: 50, group: 'order-g' });
    const [mid] = await createChannel({ ...baseChannel, name: 'order-mid', priority: 10, group: 'order-g' });
    const ids = async (query: string) => ((await admin.get(`/api/channel/search?group=order-g&${query}`)).body.data.items as { id: number }[]).map((c) => c.id);
    expect(await ids('')).toEqual([high.id, mid.id, low.id]);
    expect(await ids('id_sort=true')).toEqual([mid.id, high.id, low.id]);
  });

  it('groups by tag in tag mode and edits, enables and disables a tag', async () => {
    const a = await createChannel({ ...baseChannel, name: 'tag-a', group: 'tag-g', models: 'm1' });
    const b = await createChannel({ ...baseChannel, name: 'tag-b', group: 'tag-g', models: 'm1' });
    const c = await createChannel({ ...baseChannel, name: 'tag-c', group: 'tag-g', models: 'm1' });
    const ids = [a[0].id, b[0].id];
    expect((await admin.post('/api/channel/batch/tag', { ids, tag: 'pool' })).body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) expect((await abilitiesOf(id))[0].tag).toBe('pool');

    const tagged = await admin.get('/api/channel/search?group=tag-g&tag_mode=true');
    expect(tagged.body.data.total).toBe(2);
    const tagRow = tagged.body.data.items.find((row: { is_tag?: boolean }) => row.is_tag);
    expect(tagRow).toMatchObject({ is_tag: true, tag: 'pool', channel_count: 2, enabled_count: 2 });
    expect(tagRow.children.map((child: { id: number }) => child.id).sort()).toEqual([...ids].sort());
    expect(tagRow.children.every((child: { key: string }) => child.key === '')).toBe(true);
    expect(tagged.body.data.items.find((row: { id?: number }) => row.id === c[0].id)).toMatchObject({ name: 'tag-c' });
    const firstPage = await admin.get('/api/channel/?tag_mode=true&page_size=1&p=1');
    const allChannels = (await admin.get('/api/channel/')).body.data.total as number;
    expect(firstPage.body.data).toMatchObject({ page: 1, page_size: 1, total: allChannels - 1 });
    expect(firstPage.body.data.items).toHaveLength(1);

    const edit = await admin.put('/api/channel/tag', { tag: 'pool', new_tag: 'pool2', models: 'm2,m3', groups: 'vip', priority: 7, weight: 2, model_mapping: '{"m2":"m2-up"}' });
    expect(edit.body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) {
      const abilities = await abilitiesOf(id);
      expect(abilities.map((row) => `${row.group}/${row.model}/${row.tag}/${Number(row.priority)}/${row.weight}`)).toEqual(['vip/m2/pool2/7/2', 'vip/m3/pool2/7/2']);
      expect((await admin.get(`/api/channel/${id}`)).body.data).toMatchObject({ tag: 'pool2', model_mapping: '{"m2":"m2-up"}' });
    }

    expect((await admin.post('/api/channel/tag/disabled', { tag: 'pool2' })).body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) {
      expect((await admin.get(`/api/channel/${id}`)).body.data.status).toBe(2);
      expect((await abilitiesOf(id)).every((row) => Number(row.enabled) === 0)).toBe(true);
    }
    expect((await admin.post('/api/channel/tag/enabled', { tag: 'pool2' })).body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) expect((await abilitiesOf(id)).every((row) => Number(row.enabled) === 1)).toBe(true);
  });

  it('refuses bad tag operations', async () => {
    const before = await snapshot();
    const cases: [string, string, object, string][] = [
      ['put', '/api/channel/tag', { tag: 'pool2' }, 'No changes'],
      ['put', '/api/channel/tag', { tag: 'pool2', new_tag: '', models: '', groups: '' }, 'No changes'],
      ['put', '/api/channel/tag', { tag: 'pool2', model_mapping: '{bad' }, 'Model mapping must be a valid JSON object of strings to strings'],
      ['put', '/api/channel/tag', { tag: 'pool2', priority: -1000 }, 'Priority must be an integer of at least -999'],
      ['put', '/api/channel/tag', { tag: 'pool2', weight: 1.5 }, 'Weight must be a non-negative integer'],
      ['put', '/api/channel/tag', { tag: 'no-such-tag', priority: 1 }, 'No channel has this tag'],
      ['put', '/api/channel/tag', { priority: 1 }, 'The tag cannot be empty'],
      ['post', '/api/channel/batch/tag', { ids: [], tag: 'x' }, 'Please select channels first'],
      ['post', '/api/channel/batch/tag', { ids: [1], tag: '  ' }, 'The tag cannot be empty'],
      ['post', '/api/channel/batch/tag', { ids: ['1; DROP TABLE channels'], tag: 'x' }, 'Invalid id'],
      ['post', '/api/channel/tag/enabled', { tag: '' }, 'The tag cannot be empty'],
      ['post', '/api/channel/tag/disabled', { tag: 'missing' }, 'No channel has this tag'],
    ];
    for (const [method, path, body, message] of cases) {
      const response = await (method === 'put' ? admin.put(path, body) : admin.post(path, body)).set('Accept-Language', 'en');
      expect({ path, body, response: response.body }).toMatchObject({ path, body, response: { success: false, message } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lists enabled models and every known model', async () => {
    const [off] = await createChannel({ ...baseChannel, name: 'only-off', models: 'disabled-only-model', status: 2 });
    const enabled = (await admin.get('/api/channel/models_enabled')).body.data as string[];
    expect(enabled).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini', 'deepseek-chat']));
    expect(enabled).not.toContain('disabled-only-model');
    expect([...enabled].sort()).toEqual(enabled);

    const known = (await admin.get('/api/channel/models')).body.data as { id: string; object: string; owned_by: string }[];
    expect(known).toEqual(expect.arrayContaining([{ id: 'disabled-only-model', object: 'model', created: 0, owned_by: 'OpenAI' }]));
    // Priced models without any channel are known too.
    expect(known.find((model) => model.id === 'gemini-2.5-pro')).toMatchObject({ owned_by: 'custom' });
    await admin.delete(`/api/channel/${off.id}/`);
  });

  it('maps each channel type to its priced models for signed-in users (GET /api/models)', async () => {
    const answer = await user.get('/api/models');
    expect(answer.body.success).toBe(true);
    const byType = answer.body.data as Record<string, string[]>;
    expect(byType['1']).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini', 'dall-e-3']));
    expect(byType['1'].some((model) => model.startsWith('claude') || model.startsWith('gemini'))).toBe(false);
    expect(byType['3']).toEqual(byType['1']);
    expect(byType['14'].length).toBeGreaterThan(0);
    expect(byType['14'].every((model) => model.startsWith('claude'))).toBe(true);
    expect(byType['2']).toEqual(expect.arrayContaining(['mj_imagine', 'mj_inpaint', 'swap_face']));
    expect(byType['36']).toEqual(['suno_lyrics', 'suno_music']);
    expect(byType['43']).toEqual(expect.arrayContaining(['deepseek-chat']));
    expect([...byType['24']].sort()).toEqual(byType['24']);
    expect((await app.http.get('/api/models')).status).toBe(401);
  });

  it('answers the user model list from enabled abilities of the usable groups', async () => {
    await createChannel({ ...baseChannel, name: 'hidden', models: 'svip-only-model', group: 'svip' });
    const models = (await user.get('/api/user/models')).body.data as string[];
    expect(models).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini']));
    expect(models).not.toContain('svip-only-model');
    expect(models).not.toContain('disabled-only-model');
  });

  it('deletes one, several and all disabled channels with their abilities', async () => {
    const [one] = await createChannel({ ...baseChannel, name: 'del-one' });
    expect((await admin.delete(`/api/channel/${one.id}/`)).body.success).toBe(true);
    expect(await abilitiesOf(one.id)).toEqual([]);
    expect((await admin.get(`/api/channel/${one.id}`).set('Accept-Language', 'en')).body).toMatchObject({ success: false, message: 'Channel not found, refresh and retry' });
    expect((await admin.delete(`/api/channel/${one.id}`)).body.success).toBe(false);
    expect((await admin.get('/api/channel/abc').set('Accept-Language', 'en')).body).toMatchObject({ success: false, message: 'Invalid id' });

    const several = await createChannel({ ...baseChannel, name: 'del-many', mode: 'batch', key: 'a\nb' });
    const deleted = await admin.post('/api/channel/batch', { ids: [...several.map((c) => c.id), 999999] });
    expect(deleted.body).toMatchObject({ success: true, data: 2 });
    for (const channel of several) expect(await abilitiesOf(channel.id)).toEqual([]);

    const [manual] = await createChannel({ ...baseChannel, name: 'del-off', status: 2 });
    const [auto] = await createChannel({ ...baseChannel, name: 'del-auto' });
    await db.query(testSql('UPDATE channels SET status = 3 WHERE id = ?'), [auto.id]);
    const total = (await admin.get('/api/channel/')).body.data.total as number;
    const removed = await admin.delete('/api/channel/disabled');
    expect(removed.body).toMatchObject({ success: true, data: 2 });
    expect(await abilitiesOf(manual.id)).toEqual([]);
    expect(await abilitiesOf(auto.id)).toEqual([]);
    expect((await admin.get('/api/channel/')).body.data.total).toBe(total - 2);
  });

  it('rebuilds every ability with fix', async () => {
    const [channel] = await createChannel({ ...baseChannel, name: 'fix-me' });
    await db.query('DELETE FROM abilities');
    const channelCount = Number((await db.query('SELECT COUNT(*) AS n FROM channels'))[0].n);
    const fixed = await admin.post('/api/channel/fix');
    expect(fixed.body).toMatchObject({ success: true, data: channelCount });
    expect(await abilitiesOf(channel.id)).toHaveLength(4);
  });

  it('copies a channel with its settings and key, a fresh runtime state and its own abilities', async () => {
    const [source] = await createChannel({ ...baseChannel, name: 'copy-me', base_url: 'https://api.example.com', priority: 3, weight: 2, tag: 'team' });
    await db.query(testSql('UPDATE channels SET used_quota = 999, balance = 12, response_time = 800 WHERE id = ?'), [source.id]);
    const copied = await admin.post(`/api/channel/copy/${source.id}?suffix=${encodeURIComponent(' (copy)')}`);
    expect(copied.body).toMatchObject({ success: true, data: { name: 'copy-me (copy)', key: '', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', base_url: 'https://api.example.com', priority: 3, weight: 2, tag: 'team', used_quota: 0, balance: 0, response_time: 0 } });
    const [sourceRow] = await db.query(testSql(`SELECT ${db.driver.escape('key')} AS sealed FROM channels WHERE id = ?`), [source.id]);
    const [copyRow] = await db.query(testSql(`SELECT ${db.driver.escape('key')} AS sealed FROM channels WHERE id = ?`), [copied.body.data.id]);
    expect(copyRow.sealed).toBe(sourceRow.sealed);
    expect(await abilitiesOf(copied.body.data.id)).toHaveLength(4);

    const missing = await admin.post('/api/channel/copy/999999').set('Accept-Language', 'en');
    expect(missing.body.success).toBe(false);
    expect(missing.body.message).toMatch(/channel/i);
    expect((await user.post(`/api/channel/copy/${source.id}`)).status).toBe(403);
  });

  it('is for admins only', async () => {
    expect((await user.get('/api/channel/')).status).toBe(403);
    expect((await user.post('/api/channel/', baseChannel)).status).toBe(403);
    expect((await app.http.get('/api/channel/1')).status).toBe(401);
  });
});
