import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditLogView } from '../src/modules/audit/audit.wire';
import type { ModelMetaView, VendorView } from '../src/modules/models/model-meta.wire';
import type { RatioSyncDiff, RatioSyncRow } from '../src/modules/ratio-sync/ratio-sync.wire';
import { MAX_SOURCE_BYTES } from '../src/modules/ratio-sync/ratio-sync.service';
import { createAdmin, setupRoot, type Session } from './support/accounts';
import { connectionCounter } from './support/connection-counter';
import { call, startGateway } from './support/child-gateway';
import { RelaySeed } from './support/mock-upstream-seed';
import { scratchDatabase, startTestApp, TestApp } from './support/test-app';

/** new-api's GET /api/pricing answer: the model list as `data` (metadata: description, tags as a comma string, vendor_id), group ratios and vendors beside it. */
const NEW_API_PRICING = {
  success: true,
  data: [
    { model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4, cache_ratio: 0.5, enable_groups: ['default'], supported_endpoint_types: ['openai'], description: 'Upstream words on gpt-4o', vendor_id: 1 },
    { model_name: 'mj_imagine', quota_type: 1, model_ratio: 0, model_price: 0.1, completion_ratio: 1, enable_groups: ['default'], description: 'Draws four images from a prompt', tags: 'image, telepathy', vendor_id: 9 },
  ],
  group_ratio: { default: 1, vip: 1 },
  usable_group: { default: '默认分组' },
  vendors: [
    { id: 1, name: 'OpenAI', icon: 'OpenAI', description: '' },
    { id: 9, name: 'Imagine Labs', icon: 'midjourney', description: 'Makes pictures' },
  ],
};
/** new-api's GET /api/ratio_config: the maps themselves. */
const NEW_API_RATIO_CONFIG = { success: true, message: '', data: { model_ratio: { 'claude-3-haiku': 0.125 }, completion_ratio: { 'claude-3-haiku': 5, 'only-completion': 3 }, model_price: { 'suno-music': 0.2 } } };
/** one-api's GET /api/option/ (root): every setting as text, the maps as JSON text. */
const ONE_API_OPTIONS = {
  success: true,
  message: '',
  data: [
    { key: 'ModelRatio', value: JSON.stringify({ 'gpt-3.5-turbo': 0.25, 'text-embedding-ada-002': 0.05 }) },
    { key: 'CompletionRatio', value: JSON.stringify({ 'gpt-3.5-turbo': 3 }) },
    { key: 'SystemName', value: 'One API' },
  ],
};
/** A published price list in the README's schema (USD per million tokens). */
const PRICE_LIST = {
  currency: 'USD',
  models: [
    { model: 'list-chat', input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, description: 'From the price list', vendor: 'List Vendor', tags: ['chat', 'tools'], context_length: 200000, max_output: 8192 },
    { model: 'list-image', per_request: 0.04 },
    { model: 'list-tts', per_unit: { price: 15, unit: '1M characters' } },
    { model: 'list-free', input: 0, output: 0 },
    { model: 'list-odd', input: 0, output: 1 },
    { model: 'list-embed', input: 0.02, description: 'Not picked, so not filled' },
  ],
};

/** The second gateway's metadata of child-model-a (its vendor is "Child Maker"). */
const CHILD_MODEL_META = {
  model_name: 'child-model-a',
  description: 'The child describes A',
  tags: ['chat', 'reasoning'],
  context_length: 128000,
  max_output: 4096,
  input_modalities: ['text', 'image'],
  output_modalities: ['text'],
  icon: 'openai',
};

/** Loopback server for the mock sources; `/huge` declares its length, `/huge-stream` streams without one. */
async function startSources(): Promise<{ url: string; stop(): Promise<void> }> {
  const json = (res: http.ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    switch (req.url) {
      case '/api/pricing':
        return json(res, NEW_API_PRICING);
      case '/api/ratio_config':
        return json(res, NEW_API_RATIO_CONFIG);
      case '/api/option/':
        return json(res, ONE_API_OPTIONS);
      case '/prices.json':
        return json(res, PRICE_LIST);
      case '/prices-bad-meta.json':
        return json(res, { models: [{ model: 'fine', input: 1, context_length: -5 }] });
      case '/prices-bad.json':
        return json(res, { models: [{ model: 'fine', input: 1 }, { model: 'broken', input: -2 }] });
      case '/not-json':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<html>maintenance</html>');
      case '/failed':
        return json(res, { success: false, message: 'access token required' });
      case '/strange':
        return json(res, { success: true, data: { version: '1.0' } });
      case '/missing':
        return json(res, { success: false }, 404);
      case '/huge':
        return json(res, { success: true, data: { model_ratio: { padding: 1 }, note: 'x'.repeat(MAX_SOURCE_BYTES) } });
      case '/huge-stream': {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        const chunk = 'y'.repeat(64 * 1024);
        let sent = 0;
        const write = () => {
          while (sent <= MAX_SOURCE_BYTES + chunk.length) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return write();
      }
      default:
        return json(res, { success: false, message: 'not found' }, 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const byModel = (rows: RatioSyncRow[]) => Object.fromEntries(rows.map((row) => [row.model, row]));
/** A row's fields as `field: [current, upstream, status]`, easy to compare. */
const fieldsOf = (row: RatioSyncRow | undefined) => Object.fromEntries((row?.fields ?? []).map((field) => [field.field, [field.current, field.upstream, field.status]]));

describe('ratio sync (/api/ratio_sync)', () => {
  let app: TestApp;
  let root: Session;
  let seed: RelaySeed;
  let sources: Awaited<ReturnType<typeof startSources>>;
  let child: Awaited<ReturnType<typeof startGateway>>;
  let childDatabase: Awaited<ReturnType<typeof scratchDatabase>>;
  let childDataDir: string;

  const saveSources = (list: unknown[]) => root.put('/api/ratio_sync/sources', { sources: list }).set('Accept-Language', 'en');
  const diff = (body: Record<string, unknown>) => root.post('/api/ratio_sync/diff', body).set('Accept-Language', 'en');
  const diffOf = async (source: string, filters: Record<string, boolean> = {}): Promise<RatioSyncDiff> => {
    const response = await diff({ source, ...filters });
    expect(response.body).toMatchObject({ success: true });
    return response.body.data as RatioSyncDiff;
  };
  const apply = (body: Record<string, unknown>) => root.post('/api/ratio_sync/apply', body).set('Accept-Language', 'en');
  /** The metadata of one model name, as administrators see it (undefined: none). */
  const metaOf = async (model: string): Promise<(ModelMetaView & { vendor: string | undefined }) | undefined> => {
    const items = (await root.get(`/api/models/search?keyword=${encodeURIComponent(model)}`)).body.data.items as ModelMetaView[];
    const row = items.find((item) => item.model_name === model);
    if (!row) return undefined;
    const vendors = (await root.get('/api/models/vendors')).body.data as VendorView[];
    return { ...row, vendor: vendors.find((vendor) => vendor.id === row.vendor_id)?.name };
  };
  const optionMap = async (key: string): Promise<Record<string, number>> => {
    const options = (await root.get('/api/option/')).body.data as { key: string; value: string }[];
    return JSON.parse(options.find((option) => option.key === key)!.value) as Record<string, number>;
  };

  beforeAll(async () => {
    sources = await startSources();
    childDatabase = await scratchDatabase();
    childDataDir = mkdtempSync(path.join(tmpdir(), 'gw-ratio-child-'));
    child = await startGateway({ ...childDatabase.env, DATA_DIR: childDataDir, SESSION_SECRET: 'ratio-child-secret', WEB_DIST_DIR: path.join(childDataDir, 'no-web') });
    // The second gateway: its prices and one channel serving the models (its /api/pricing lists served models only).
    const childRoot = { username: 'root', password: 'root-pass-1' };
    await call(child.baseUrl, 'POST', '/api/setup', { ...childRoot, confirmPassword: childRoot.password });
    const signIn = await call(child.baseUrl, 'POST', '/api/user/login', childRoot);
    const childSession = { cookie: signIn.cookie, id: (signIn.data as { id: number }).id };
    const setOption = (key: string, value: unknown) => call(child.baseUrl, 'PUT', '/api/option/', { key, value: typeof value === 'string' ? value : JSON.stringify(value) }, childSession);
    await setOption('fetch_setting.allow_private_ip', 'true');
    await setOption('ModelRatio', { 'child-model-a': 2.5, 'shared-model': 1, 'same-model': 2 });
    await setOption('CompletionRatio', { 'child-model-a': 4 });
    await setOption('ModelPrice', { 'child-fixed': 0.05 });
    const childModels = 'child-model-a,shared-model,same-model,child-fixed,child-unpriced';
    await call(child.baseUrl, 'POST', '/api/channel/', { name: 'child', type: 1, key: 'sk-child', base_url: sources.url, models: childModels }, childSession);
    // Its metadata of child-model-a, which its /api/pricing rows and vendor list carry.
    const childVendor = await call(child.baseUrl, 'POST', '/api/models/vendors', { name: 'Child Maker', icon: 'https://cdn.example.com/child.png' }, childSession);
    await call(child.baseUrl, 'POST', '/api/models/', { ...CHILD_MODEL_META, vendor_id: (childVendor.data as { id: number }).id }, childSession);

    app = await startTestApp();
    root = await setupRoot(app);
    seed = new RelaySeed(app);
    await seed.setOption('ModelRatio', JSON.stringify({ 'shared-model': 3, 'same-model': 2, mj_imagine: 5, 'list-chat': 1 }));
    await seed.setOption('ModelPrice', JSON.stringify({ 'gpt-4o': 0.2 }));
    await seed.setOption('CompletionRatio', JSON.stringify({}));
    await seed.setOption('CacheRatio', JSON.stringify({}));
    await seed.setOption('CreateCacheRatio', JSON.stringify({}));
    // This gateway serves child-model-a and list-chat: the only_served filter keeps those.
    await seed.createChannel({ base_url: sources.url, models: 'child-model-a,list-chat' });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    if (child && child.child.exitCode === null) {
      const exited = new Promise((resolve) => child.child.once('exit', resolve));
      child.child.kill('SIGTERM');
      await exited;
    }
    await childDatabase?.drop();
    rmSync(childDataDir, { recursive: true, force: true });
    await sources?.stop();
  });

  it('keeps a list of sources, each one checked, and only root reaches the routes', async () => {
    const list = [
      { name: 'child', kind: 'gateway', url: child.baseUrl },
      { name: 'new-api', kind: 'gateway', url: `${sources.url}/api/pricing` },
      { name: 'ratio-config', kind: 'gateway', url: `${sources.url}/api/ratio_config` },
      { name: 'one-api', kind: 'gateway', url: `${sources.url}/api/option/` },
      { name: 'list', kind: 'price_list', url: ` ${sources.url}/prices.json ` },
    ];
    const saved = await saveSources(list);
    expect(saved.body).toMatchObject({ success: true });
    expect((saved.body.data as { url: string }[])[4].url).toBe(`${sources.url}/prices.json`);
    expect((await root.get('/api/ratio_sync/sources')).body.data).toHaveLength(5);

    for (const bad of [[{ name: 'x', kind: 'ftp', url: sources.url }], [{ name: 'x', kind: 'gateway', url: 'file:///etc/passwd' }], [{ name: '', kind: 'gateway', url: sources.url }], [list[0], list[0]]]) {
      const answer = await saveSources(bad);
      expect(answer.body).toMatchObject({ success: false, message: expect.stringContaining('RatioSyncSources must be a JSON list') });
    }
    expect((await root.get('/api/ratio_sync/sources')).body.data).toHaveLength(5);

    const admin = await createAdmin(app, root, 'syncadmin');
    expect((await admin.get('/api/ratio_sync/sources')).status).toBe(403);
    expect((await admin.post('/api/ratio_sync/diff', { source: 'child' })).status).toBe(403);
  });

  it('compares with a second gateway of this family, per model and field, with the three filters', async () => {
    const result = await diffOf('child');
    expect(result.format).toBe('pricing_list');
    expect(result.skipped).toEqual([{ model: 'child-unpriced', reason: 'unpriced' }]);
    const rows = byModel(result.rows);
    expect(Object.keys(rows).sort()).toEqual(['child-fixed', 'child-model-a', 'same-model', 'shared-model']);
    expect(rows['child-model-a']).toMatchObject({ status: 'new', served: true });
    expect(fieldsOf(rows['child-model-a'])).toEqual({ model_ratio: [null, 2.5, 'added'], completion_ratio: [null, 4, 'added'] });
    expect(rows['child-fixed']).toMatchObject({ status: 'new', served: false });
    expect(fieldsOf(rows['child-fixed'])).toEqual({ model_price: [null, 0.05, 'added'] });
    // The child's completion ratio 1 is what an unset one bills at: no change.
    expect(fieldsOf(rows['shared-model'])).toEqual({ model_ratio: [3, 1, 'changed'], completion_ratio: [null, 1, 'same'] });
    expect(rows['shared-model'].status).toBe('changed');
    expect(rows['same-model'].status).toBe('same');

    expect((await diffOf('child', { only_changed: true })).rows.map((row) => row.model)).toEqual(['child-fixed', 'child-model-a', 'shared-model']);
    expect((await diffOf('child', { only_new: true })).rows.map((row) => row.model)).toEqual(['child-fixed', 'child-model-a']);
    expect((await diffOf('child', { only_served: true })).rows.map((row) => row.model)).toEqual(['child-model-a']);
    expect((await diffOf('child', { only_changed: true, only_served: true })).rows.map((row) => row.model)).toEqual(['child-model-a']);
  });

  it("reads new-api's /api/pricing and /api/ratio_config and one-api's option list", async () => {
    const newApi = await diffOf('new-api');
    expect(newApi.format).toBe('pricing_list');
    const rows = byModel(newApi.rows);
    // Billed per token upstream: the fixed price here would win over the ratios, so applying clears it.
    expect(fieldsOf(rows['gpt-4o'])).toEqual({ model_price: [0.2, null, 'removed'], model_ratio: [null, 1.25, 'added'], completion_ratio: [null, 4, 'added'], cache_ratio: [null, 0.5, 'added'] });
    expect(rows['gpt-4o'].status).toBe('changed');
    // Billed per call upstream: the ratio here is cleared, as the pricing editor does.
    expect(fieldsOf(rows.mj_imagine)).toEqual({ model_price: [null, 0.1, 'added'], model_ratio: [5, null, 'removed'] });

    const ratioConfig = await diffOf('ratio-config');
    expect(ratioConfig.format).toBe('ratio_config');
    expect(fieldsOf(byModel(ratioConfig.rows)['claude-3-haiku'])).toEqual({ model_ratio: [null, 0.125, 'added'], completion_ratio: [null, 5, 'added'] });
    expect(fieldsOf(byModel(ratioConfig.rows)['suno-music'])).toEqual({ model_price: [null, 0.2, 'added'] });
    expect(ratioConfig.skipped).toEqual([{ model: 'only-completion', reason: 'no_price' }]);

    const oneApi = await diffOf('one-api');
    expect(oneApi.format).toBe('option_list');
    expect(fieldsOf(byModel(oneApi.rows)['gpt-3.5-turbo'])).toEqual({ model_ratio: [null, 0.25, 'added'], completion_ratio: [null, 3, 'added'] });
    expect(fieldsOf(byModel(oneApi.rows)['text-embedding-ada-002'])).toEqual({ model_ratio: [null, 0.05, 'added'] });
  });

  it('converts a price list by the pricing editor rule (ratio = input / 2, multiples of the input price)', async () => {
    const list = await diffOf('list');
    expect(list.format).toBe('price_list');
    const rows = byModel(list.rows);
    expect(fieldsOf(rows['list-chat'])).toEqual({ model_ratio: [1, 1.5, 'changed'], completion_ratio: [null, 5, 'added'], cache_ratio: [null, 0.1, 'added'], create_cache_ratio: [null, 1.25, 'added'] });
    expect(rows['list-chat']).toMatchObject({ status: 'changed', served: true });
    expect(fieldsOf(rows['list-image'])).toEqual({ model_price: [null, 0.04, 'added'] });
    expect(fieldsOf(rows['list-free'])).toEqual({ model_ratio: [null, 0, 'added'] });
    expect(fieldsOf(rows['list-embed'])).toEqual({ model_ratio: [null, 0.01, 'added'] });
    expect(list.skipped).toEqual([
      { model: 'list-tts', reason: 'per_unit' },
      { model: 'list-odd', reason: 'output_without_input' },
    ]);
  });

  it('applies only the picked rows, in one settings change the audit log records', async () => {
    const ratiosBefore = await optionMap('ModelRatio');
    const nothing = await apply({ source: 'list', rows: [] });
    expect(nothing.body).toMatchObject({ success: false, message: 'Pick at least one model' });
    for (const rows of [[{ model: 'list-chat' }], [{ model: 'list-chat', fields: { model_ratio: -1 } }], [{ model: 'list-chat', fields: { image_ratio: 1 } }], [{ model: '', fields: { model_ratio: 1 } }]]) {
      expect((await apply({ source: 'list', rows })).body).toMatchObject({ success: false, message: expect.stringContaining('Picked row 0 is not valid') });
    }
    expect((await apply({ source: 'nowhere', rows: [{ model: 'x', fields: { model_ratio: 1 } }] })).body).toMatchObject({ success: false, message: 'There is no sync source named nowhere' });
    expect(await optionMap('ModelRatio')).toEqual(ratiosBefore);

    // Comparing wrote no metadata; an administrator has described list-chat already.
    for (const model of ['list-chat', 'list-image', 'list-embed', 'mj_imagine']) expect(await metaOf(model)).toBeUndefined();
    expect((await root.post('/api/models/', { model_name: 'list-chat', description: 'Edited here' })).body).toMatchObject({ success: true });

    // The rows as the console sends them: each picked model with the upstream values of its fields.
    const picked = byModel((await diffOf('list')).rows);
    const pick = (model: string) => ({ model, fields: Object.fromEntries(picked[model].fields.map((field) => [field.field, field.upstream])) });
    const applied = await apply({ source: 'list', rows: [pick('list-chat'), pick('list-image')] });
    expect(applied.body).toMatchObject({ success: true, message: 'Prices of 2 models applied', data: { models: 2, metadata_models: 1, keys: expect.arrayContaining(['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice']) } });
    // The list's metadata fills only what was empty: the administrator's description stays.
    expect(await metaOf('list-chat')).toMatchObject({ description: 'Edited here', vendor: 'List Vendor', tags: ['chat', 'tools'], context_length: 200000, max_output: 8192 });
    expect(await metaOf('list-image')).toBeUndefined();
    expect(await metaOf('list-embed')).toBeUndefined();

    expect(await optionMap('ModelRatio')).toEqual({ ...ratiosBefore, 'list-chat': 1.5 });
    expect(await optionMap('CompletionRatio')).toEqual({ 'list-chat': 5 });
    expect(await optionMap('CacheRatio')).toEqual({ 'list-chat': 0.1 });
    expect(await optionMap('CreateCacheRatio')).toEqual({ 'list-chat': 1.25 });
    expect(await optionMap('ModelPrice')).toEqual({ 'gpt-4o': 0.2, 'list-image': 0.04 });
    // Rows not picked stay as they were: list-free and list-embed are still new.
    expect((await diffOf('list', { only_new: true })).rows.map((row) => row.model)).toEqual(['list-free', 'list-embed'].sort());
    expect((await diffOf('list', { only_changed: true })).rows.map((row) => row.model)).not.toContain('list-chat');

    // A picked null clears the entry: mj_imagine goes from a ratio to a fixed price.
    const mj = await apply({ source: 'new-api', rows: [{ model: 'mj_imagine', fields: { model_price: 0.1, model_ratio: null } }] });
    expect(mj.body).toMatchObject({ success: true, data: { models: 1, metadata_models: 1 } });
    // new-api's metadata: tags as a comma string (unknown ones dropped), the vendor from its vendor list, created with its icon.
    expect(await metaOf('mj_imagine')).toMatchObject({ description: 'Draws four images from a prompt', vendor: 'Imagine Labs', tags: ['image'] });
    expect(((await root.get('/api/models/vendors')).body.data as VendorView[]).find((vendor) => vendor.name === 'Imagine Labs')).toMatchObject({ icon: 'midjourney', model_count: 1 });
    expect((await metaOf('gpt-4o'))?.description).not.toBe('Upstream words on gpt-4o');
    expect(await optionMap('ModelRatio')).not.toHaveProperty('mj_imagine');
    const pricing = (await app.http.get('/api/pricing')).body.data as { model_name: string }[];
    expect(pricing.map((row) => row.model_name)).toContain('list-chat');

    const audit = (await root.get('/api/audit/?page_size=100&entity=option')).body.data.items as AuditLogView[];
    const syncs = audit.filter((row) => row.action === 'ratio_sync');
    expect(syncs).toHaveLength(2);
    const first = syncs[1];
    expect(first.entity_id.split(',').sort()).toEqual(['CacheRatio', 'CompletionRatio', 'CreateCacheRatio', 'ModelPrice', 'ModelRatio']);
    expect(first.changes.ModelRatio).toEqual({ from: { 'list-chat': 1 }, to: { 'list-chat': 1.5 } });
    expect(first.changes.ModelPrice).toEqual({ from: { 'list-image': null }, to: { 'list-image': 0.04 } });
    expect(first.changes.source).toEqual({ from: null, to: `list (${sources.url}/prices.json)` });
    expect(first.changes.metadata_offered).toEqual({ from: null, to: 1 });
    expect(syncs[0].changes.ModelRatio).toEqual({ from: { mj_imagine: 5 }, to: { mj_imagine: null } });
  });

  it("fills metadata from a gateway of this family: its rows' fields and its vendor list", async () => {
    expect(await metaOf('child-model-a')).toBeUndefined();
    const applied = await apply({ source: 'child', rows: [{ model: 'child-model-a', fields: { model_ratio: 2.5, completion_ratio: 4 } }] });
    expect(applied.body).toMatchObject({ success: true, data: { models: 1, metadata_models: 1 } });
    expect(await metaOf('child-model-a')).toMatchObject({ ...CHILD_MODEL_META, vendor: 'Child Maker' });
    const vendor = ((await root.get('/api/models/vendors')).body.data as VendorView[]).find((item) => item.name === 'Child Maker');
    expect(vendor).toMatchObject({ icon: 'https://cdn.example.com/child.png' });
  });

  it('refuses a malformed or oversized source clearly, and writes nothing', async () => {
    const host = new URL(sources.url).host;
    await saveSources([
      { name: 'not-json', kind: 'gateway', url: `${sources.url}/not-json` },
      { name: 'failed', kind: 'gateway', url: `${sources.url}/failed` },
      { name: 'strange', kind: 'gateway', url: `${sources.url}/strange` },
      { name: 'missing', kind: 'gateway', url: `${sources.url}/missing` },
      { name: 'bad-list', kind: 'price_list', url: `${sources.url}/prices-bad.json` },
      { name: 'bad-meta', kind: 'price_list', url: `${sources.url}/prices-bad-meta.json` },
      { name: 'gateway-as-list', kind: 'price_list', url: `${sources.url}/api/pricing` },
      { name: 'huge', kind: 'gateway', url: `${sources.url}/huge` },
      { name: 'huge-stream', kind: 'gateway', url: `${sources.url}/huge-stream` },
    ]);
    const ratiosBefore = await optionMap('ModelRatio');
    const expected: Record<string, string> = {
      'not-json': `The answer of the sync source ${host} is not JSON`,
      failed: `The sync source ${host} answered with a failure: access token required`,
      strange: `The answer of the sync source ${host} is not understood`,
      missing: `The sync source ${host} answered HTTP 404`,
      'bad-list': 'The price list does not follow the schema (see the README): models[1].input',
      'bad-meta': 'The price list does not follow the schema (see the README): models[0].context_length',
      'gateway-as-list': 'The price list does not follow the schema (see the README): models',
      huge: `The answer of the sync source ${host} is larger than 5 MB and was refused`,
      'huge-stream': `The answer of the sync source ${host} is larger than 5 MB and was refused`,
    };
    for (const [source, message] of Object.entries(expected)) {
      const response = await diff({ source });
      expect([source, response.status, response.body]).toEqual([source, 200, expect.objectContaining({ success: false, message: expect.stringContaining(message) })]);
    }
    expect((await diff({ source: 'nowhere' })).body).toMatchObject({ success: false, message: 'There is no sync source named nowhere' });
    expect((await diff({})).body).toMatchObject({ success: false });
    expect(await optionMap('ModelRatio')).toEqual(ratiosBefore);
  });

  it('fetches through the outbound guard: a private address is refused before connecting unless root allows it', async () => {
    const trap = await connectionCounter();
    try {
      await saveSources([{ name: 'trap', kind: 'gateway', url: trap.url }]);
      await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'false' });
      const refused = await diff({ source: 'trap' });
      expect(refused.body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
      // Saving a private address is refused too, by the same rule.
      expect((await saveSources([{ name: 'lan', kind: 'price_list', url: 'http://10.0.0.7/prices.json' }])).body).toMatchObject({ success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') });
      expect((await saveSources([{ name: 'metadata', kind: 'price_list', url: 'http://169.254.169.254/latest' }])).body).toMatchObject({ success: false });
      expect(trap.connections()).toBe(0);

      await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
      const allowed = await diff({ source: 'trap' });
      expect(allowed.body).toMatchObject({ success: false, message: expect.stringContaining('Could not reach the sync source') });
      expect(trap.connections()).toBeGreaterThan(0);
    } finally {
      await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
      await trap.stop();
    }
  });
});
