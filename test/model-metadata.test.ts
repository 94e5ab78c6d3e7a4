import { ModelMetaService } from '../src/modules/models/model-meta.service';
import type { ModelMetaView, VendorView } from '../src/modules/models/model-meta.wire';
import type { PricingRow } from '../src/modules/pricing/pricing.wire';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

describe('model and vendor metadata', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;

  const en = (test: ReturnType<Session['get']>) => test.set('Accept-Language', 'en');
  const vendors = async (): Promise<VendorView[]> => (await admin.get('/api/models/vendors')).body.data;
  const vendorNamed = async (name: string): Promise<VendorView> => (await vendors()).find((vendor) => vendor.name === name)!;
  const search = async (query: string) => (await admin.get(`/api/models/search?${query}`)).body.data as { total: number; items: ModelMetaView[] };
  const pricingRows = async () => {
    const body = (await app.http.get('/api/pricing')).body as { data: PricingRow[]; vendors: { id: number; name: string; icon: string }[] };
    return { rows: new Map(body.data.map((row) => [row.model_name, row])), vendors: body.vendors };
  };

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'metaadmin');
    alice = await registerUser(app, 'alice');
    const channel = { name: 'served', key: 'k', models: 'gpt-4o,Acme-Large,acme-small,undescribed-model', group: 'default' };
    expect((await admin.post('/api/channel/', channel)).body.success).toBe(true);
  });
  afterAll(() => app.stop());

  it('ships well-known vendors and models', async () => {
    const openai = await vendorNamed('OpenAI');
    expect(openai).toMatchObject({ icon: 'openai' });
    expect(openai.model_count).toBeGreaterThanOrEqual(4);
    const [gpt] = (await search('keyword=gpt-4o-mini')).items;
    expect(gpt).toMatchObject({ model_name: 'gpt-4o-mini', vendor_id: openai.id, context_length: 128000, max_output: 16384, tags: ['chat', 'vision', 'tools'], input_modalities: ['text', 'image'] });
  });

  it('creates, reads, lists, updates and deletes a vendor and a model', async () => {
    const created = await admin.post('/api/models/vendors', { name: 'Acme', icon: 'https://cdn.example.com/acme.png' });
    expect(created.body).toMatchObject({ success: true, data: { name: 'Acme', icon: 'https://cdn.example.com/acme.png', model_count: 0 } });
    const acme = created.body.data as VendorView;

    const model = await admin.post('/api/models', {
      model_name: 'Acme-Large',
      description: 'A large model',
      vendor_id: acme.id,
      // Given out of order and repeated: stored once each, in catalogue order.
      tags: ['tools', 'chat', 'chat'],
      context_length: 256000,
      max_output: 32000,
      input_modalities: ['text', 'image'],
      output_modalities: ['text'],
      icon: 'openai',
    });
    expect(model.body.success).toBe(true);
    const id = (model.body.data as ModelMetaView).id;
    expect((await admin.get(`/api/models/${id}`)).body.data).toMatchObject({
      id,
      model_name: 'Acme-Large',
      description: 'A large model',
      vendor_id: acme.id,
      tags: ['chat', 'tools'],
      context_length: 256000,
      max_output: 32000,
      input_modalities: ['text', 'image'],
      output_modalities: ['text'],
      icon: 'openai',
    });

    // Filters: keyword (name or description), vendor and tag; paging.
    expect((await search('keyword=large%20model')).items.map((row) => row.model_name)).toEqual(['Acme-Large']);
    expect((await search(`vendor_id=${acme.id}`)).items.map((row) => row.model_name)).toEqual(['Acme-Large']);
    expect((await search(`vendor_id=${acme.id}&tag=vision`)).total).toBe(0);
    const reasoning = await search('tag=reasoning');
    expect(reasoning.items.every((row) => row.tags.includes('reasoning'))).toBe(true);
    expect(reasoning.items.map((row) => row.model_name)).toContain('deepseek-reasoner');
    const firstPage = await search('page_size=2&p=1');
    const secondPage = await search('page_size=2&p=2');
    expect(firstPage.items).toHaveLength(2);
    expect(firstPage.total).toBe(secondPage.total);
    expect(secondPage.items[0].model_name > firstPage.items[1].model_name).toBe(true);

    // An update changes only the fields it names.
    const updated = await admin.put('/api/models', { id, context_length: 512000, tags: ['chat', 'reasoning'] });
    expect(updated.body.data).toMatchObject({ context_length: 512000, tags: ['chat', 'reasoning'], max_output: 32000, description: 'A large model', vendor_id: acme.id });
    expect((await admin.put('/api/models/vendors', { id: acme.id, name: 'Acme Inc' })).body.data).toMatchObject({ name: 'Acme Inc', model_count: 1 });

    // Deleting a vendor keeps its models, without a vendor.
    expect((await admin.delete(`/api/models/vendors/${acme.id}`)).body).toMatchObject({ success: true });
    expect((await admin.get(`/api/models/${id}`)).body.data).toMatchObject({ vendor_id: 0, context_length: 512000 });
    expect((await vendors()).some((vendor) => vendor.id === acme.id)).toBe(false);

    expect((await admin.delete(`/api/models/${id}`)).body).toMatchObject({ success: true });
    expect((await en(admin.get(`/api/models/${id}`))).body).toMatchObject({ success: false, message: 'Model metadata not found' });
    expect((await en(admin.delete(`/api/models/${id}`))).body).toMatchObject({ success: false, message: 'Model metadata not found' });
  });

  it('refuses bad input with a clear message', async () => {
    const refusals: [Promise<{ status: number; body: { success: boolean; message: string } }>, string][] = [
      [en(admin.post('/api/models', { model_name: '' })), 'The model name must be 1 to 255 characters long'],
      [en(admin.post('/api/models', { model_name: 'gpt-4o' })), 'Metadata for model gpt-4o already exists'],
      [en(admin.post('/api/models', { model_name: 'x', tags: ['chat', 'telepathy'] })), 'Tags must be chat, vision, tools, reasoning, embedding, image, audio or video'],
      [en(admin.post('/api/models', { model_name: 'x', context_length: -1 })), 'Context length and max output must be integers from 0 to 10000000'],
      [en(admin.post('/api/models', { model_name: 'x', max_output: 1.5 })), 'Context length and max output must be integers from 0 to 10000000'],
      [en(admin.post('/api/models', { model_name: 'x', input_modalities: ['smell'] })), 'Modalities must be text, image, audio, video, file or embedding'],
      [en(admin.post('/api/models', { model_name: 'x', icon: 'http://plain.example.com/a.png' })), 'The icon must be empty, a built-in icon key or an https URL'],
      [en(admin.post('/api/models', { model_name: 'x', icon: 'javascript:alert(1)' })), 'The icon must be empty, a built-in icon key or an https URL'],
      [en(admin.post('/api/models', { model_name: 'x', vendor_id: 999999 })), 'Vendor not found'],
      [en(admin.post('/api/models', { model_name: 'x', description: 'd'.repeat(1001) })), 'The description may be at most 1000 characters long'],
      [en(admin.put('/api/models', { id: 999999, description: 'x' })), 'Model metadata not found'],
      [en(admin.get('/api/models/search?tag=telepathy')), 'Tags must be chat, vision, tools, reasoning, embedding, image, audio or video'],
      [en(admin.get('/api/models/search?vendor_id=abc')), 'Invalid vendor id'],
      [en(admin.post('/api/models/vendors', { name: 'openai' })), 'Vendor openai already exists'],
      [en(admin.post('/api/models/vendors', { name: ' ' })), 'The vendor name must be 1 to 64 characters long'],
      [en(admin.post('/api/models/vendors', { name: 'Other', icon: 'not-a-key' })), 'The icon must be empty, a built-in icon key or an https URL'],
      [en(admin.delete('/api/models/vendors/999999')), 'Vendor not found'],
    ];
    for (const [answer, message] of refusals) {
      const { status, body } = await answer;
      expect({ status, success: body.success, message: body.message }).toEqual({ status: 200, success: false, message });
    }
    // Renaming onto another model's name is refused too.
    const [gpt] = (await search('keyword=gpt-4o-mini')).items;
    expect((await en(admin.put('/api/models', { id: gpt.id, model_name: 'gpt-4o' }))).body).toMatchObject({ success: false, message: 'Metadata for model gpt-4o already exists' });
    expect((await en(admin.get('/api/models/abc'))).body).toMatchObject({ success: false });
  });

  it('puts the metadata and the vendors it names into the public pricing answer', async () => {
    const google = await vendorNamed('Google');
    await admin.post('/api/models', { model_name: 'acme-small', vendor_id: google.id, tags: ['chat', 'vision'], context_length: 32768, description: 'Small and quick' });
    const { rows, vendors: listed } = await pricingRows();
    const openai = await vendorNamed('OpenAI');
    expect(rows.get('gpt-4o')).toMatchObject({ model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, vendor_id: openai.id, context_length: 128000, max_output: 16384, tags: ['chat', 'vision', 'tools'], input_modalities: ['text', 'image'], output_modalities: ['text'] });
    expect(rows.get('acme-small')).toMatchObject({ vendor_id: google.id, tags: ['chat', 'vision'], context_length: 32768, description: 'Small and quick' });
    // A served model without metadata carries the empty values, so every row has one shape.
    expect(rows.get('undescribed-model')).toMatchObject({ description: '', vendor_id: 0, tags: [], context_length: 0, max_output: 0, input_modalities: [], output_modalities: [], icon: '' });
    // Only vendors some served row names.
    expect(listed.map((vendor) => vendor.name).sort()).toEqual(['Google', 'OpenAI']);
    expect(listed.find((vendor) => vendor.name === 'OpenAI')).toEqual({ id: openai.id, name: 'OpenAI', icon: 'openai' });
  });

  it('lets ratio sync fill only the gaps, never overwriting an administrator', async () => {
    const service = app.app.get(ModelMetaService);
    const [acmeSmall] = (await search('keyword=acme-small')).items;
    const result = await service.fillFromSource([
      { model_name: 'acme-small', description: 'From the source', context_length: 65536, max_output: 8192, vendor: 'Acme Labs', tags: ['chat', 'bogus'] },
      { model_name: 'Acme-Large', vendor: 'acme labs', tags: ['chat', 'reasoning', 'bogus'], context_length: -5, input_modalities: ['text', 'smell'], icon: 'http://x' },
      { model_name: '  ' },
    ]);
    expect(result).toEqual({ created: 1, filled: 1 });
    expect((await admin.get(`/api/models/${acmeSmall.id}`)).body.data).toMatchObject({ description: 'Small and quick', context_length: 32768, max_output: 8192, vendor_id: acmeSmall.vendor_id });
    const labs = await vendorNamed('Acme Labs');
    const [large] = (await search('keyword=Acme-Large')).items;
    expect(large).toMatchObject({ vendor_id: labs.id, tags: ['chat', 'reasoning'], context_length: 0, input_modalities: ['text'], icon: '' });
    const { rows } = await pricingRows();
    expect(rows.get('Acme-Large')).toMatchObject({ vendor_id: labs.id, tags: ['chat', 'reasoning'] });
  });

  it('lets only administrators read or write metadata', async () => {
    expect((await alice.get('/api/models/search')).status).toBe(403);
    expect((await alice.post('/api/models', { model_name: 'mine' })).status).toBe(403);
    expect((await alice.put('/api/models', { id: 1, description: 'x' })).status).toBe(403);
    expect((await alice.delete('/api/models/1')).status).toBe(403);
    expect((await alice.get('/api/models/vendors')).status).toBe(403);
    expect((await alice.post('/api/models/vendors', { name: 'Mine' })).status).toBe(403);
    expect((await alice.delete('/api/models/vendors/1')).status).toBe(403);
    expect((await app.http.post('/api/models').send({ model_name: 'anon' })).status).toBe(401);
    expect((await search('keyword=mine')).total).toBe(0);
    // The channel editor's type → models map at GET /api/models is still there for signed-in users.
    expect((await alice.get('/api/models')).body.success).toBe(true);
  });
});
