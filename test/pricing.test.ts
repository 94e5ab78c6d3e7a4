import { DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from '../src/modules/pricing/default-ratios';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

interface PricingRow {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  enable_groups: string[];
  price_set: boolean;
}

describe('public pricing', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;

  const rowsOf = (body: { data: PricingRow[] }) => new Map(body.data.map((row) => [row.model_name, row]));

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'priceadmin');
    alice = await registerUser(app, 'alice');

    const channels = [
      { name: 'a', key: 'k', models: 'gpt-4o,dall-e-3,my-unpriced-model', group: 'default,vip' },
      { name: 'b', key: 'k', models: 'gpt-4o,claude-sonnet-4-20250514', group: 'svip' },
      { name: 'c', key: 'k', models: 'disabled-model', group: 'default', status: 2 },
    ];
    for (const channel of channels) expect((await admin.post('/api/channel/', channel)).body.success).toBe(true);
    for (const [key, value] of Object.entries({
      GroupRatio: JSON.stringify({ default: 1, vip: 1.5, svip: 0.8 }),
      UserUsableGroups: JSON.stringify({ default: 'Default', vip: 'VIP' }),
      GroupGroupRatio: JSON.stringify({ default: { vip: 1.2 } }),
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(() => app.stop());

  it('is public and lists the models of enabled channels with their groups and prices', async () => {
    const response = await app.http.get('/api/pricing').expect(200);
    expect(response.body).toMatchObject({ success: true, message: '' });
    const rows = rowsOf(response.body);
    expect([...rows.keys()].sort()).toEqual(['claude-sonnet-4-20250514', 'dall-e-3', 'gpt-4o', 'my-unpriced-model']);
    // The model's metadata rides along (test/model-metadata.test.ts).
    expect(rows.get('gpt-4o')).toMatchObject({ model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, completion_ratio: 4, model_price: -1, enable_groups: ['default', 'svip', 'vip'], price_set: true, context_length: 128000 });
    expect(rows.get('dall-e-3')).toMatchObject({ quota_type: 1, model_price: 0.04, enable_groups: ['default', 'vip'] });
    expect(rows.get('claude-sonnet-4-20250514')).toMatchObject({ quota_type: 0, model_ratio: 1.5, completion_ratio: 5, enable_groups: ['svip'] });
    // Shown with the fallback ratio it is billed at where allowed, and marked as having no price.
    expect(rows.get('my-unpriced-model')).toMatchObject({ quota_type: 0, model_price: -1, price_set: false });
    expect(rows.get('dall-e-3')).toMatchObject({ price_set: true });
  });

  it('gives anonymous viewers the usable groups and their ratios beside data', async () => {
    const response = await app.http.get('/api/pricing');
    expect(response.body.usable_group).toEqual({ default: 'Default', vip: 'VIP' });
    expect(response.body.group_ratio).toEqual({ default: 1, vip: 1.5 });
  });

  it('applies the viewer group: its own group is usable and its special ratios apply', async () => {
    const response = await alice.get('/api/pricing');
    expect(response.body.usable_group).toEqual({ default: 'Default', vip: 'VIP' });
    expect(response.body.group_ratio).toEqual({ default: 1, vip: 1.2 });

    expect((await root.put('/api/user/', { id: alice.id, group: 'svip' })).body.success).toBe(true);
    const svip = await alice.get('/api/pricing');
    expect(svip.body.usable_group).toEqual({ default: 'Default', vip: 'VIP', svip: 'svip' });
    expect(svip.body.group_ratio).toEqual({ default: 1, vip: 1.5, svip: 0.8 });
  });

  it('follows channel changes', async () => {
    const list = (await admin.get('/api/channel/search?keyword=c')).body.data.items as { id: number; name: string }[];
    const disabled = list.find((channel) => channel.name === 'c')!;
    await admin.put('/api/channel/', { id: disabled.id, status: 1 });
    expect(rowsOf((await app.http.get('/api/pricing')).body).get('disabled-model')).toMatchObject({ enable_groups: ['default'] });
  });

  it('keeps other answers in the plain envelope', async () => {
    const response = await alice.get('/api/user/self');
    expect(Object.keys(response.body).sort()).toEqual(['data', 'message', 'success']);
  });

  it('ships list prices for widely used models', () => {
    const expected: [string, number, number?, number?][] = [
      ['gpt-4o-mini', 0.075, 4, 0.5],
      ['gpt-4.1', 1, 4, 0.25],
      ['o3-mini', 0.55, 4, 0.5],
      ['gpt-3.5-turbo', 0.25, 3],
      ['claude-3-5-haiku-20241022', 0.4, 5, 0.1],
      ['claude-opus-4-1-20250805', 7.5, 5, 0.1],
      ['gemini-2.5-pro', 0.625, 8, 0.1],
      ['gemini-2.0-flash', 0.05, 4, 0.25],
      ['deepseek-chat', 0.14, 1.5, 0.1],
      ['qwen-plus', 0.2, 3],
      ['mistral-large-latest', 1, 3],
      ['text-embedding-3-small', 0.01],
    ];
    for (const [model, ratio, completion, cache] of expected) {
      expect({ model, ratio: DEFAULT_MODEL_RATIO[model], completion: DEFAULT_COMPLETION_RATIO[model], cache: DEFAULT_CACHE_RATIO[model] }).toEqual({ model, ratio, completion, cache });
    }
    expect(DEFAULT_MODEL_PRICE['dall-e-3']).toBe(0.04);
    for (const table of [DEFAULT_MODEL_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_CACHE_RATIO, DEFAULT_MODEL_PRICE]) {
      for (const value of Object.values(table)) expect(Number.isFinite(value) && value >= 0).toBe(true);
    }
    // Only the Midjourney actions that just open a window are free (the modal that follows is billed), as in new-api.
    expect(Object.keys(DEFAULT_MODEL_PRICE).filter((model) => DEFAULT_MODEL_PRICE[model] === 0).sort()).toEqual(['mj_custom_zoom', 'mj_inpaint']);
  });
});
