import type OpenAI from 'openai';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import type { Session } from './support/accounts';
import { MOCK_REPLY_TEXT, type MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

/**
 * PaLM2 (type 11): Google decommissioned the PaLM API (generateMessage on v1beta2) on
 * 15 August 2024, so the type is retired. Channels of it imported from new-api or one-api stay
 * visible and manageable, but no new one can be saved and none is ever routed to.
 */
describe('retired channel types: PaLM2 (type 11)', () => {
  let openaiUpstream: MockUpstream;
  let palmHost: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let openai: OpenAI;
  let stop: () => Promise<void>;
  let palm: number;

  beforeAll(async () => {
    ({ native: palmHost, openaiUpstream, seed, root, openai, stop } = await startNativeRelayTestbed({ ModelRatio: { 'chat-bison-001': 1, 'text-bison-001': 1, 'gpt-test': 1 } }));
    // As a table migrated from new-api holds it: written straight into the database, never through the API.
    palm = await seed.createChannel({ name: 'old-palm', type: CHANNEL_TYPE.PALM, base_url: palmHost.url, models: 'chat-bison-001,text-bison-001', key: 'AIza-old-palm-key', priority: 100 });
    await seed.createChannel({ name: 'openai-bison', base_url: openaiUpstream.url, models: 'text-bison-001', priority: 0 });
  });
  afterAll(() => stop());
  beforeEach(() => {
    palmHost.reset();
    openaiUpstream.reset();
  });

  it('refuses to create a PaLM2 channel, or to switch a channel to PaLM2, with a clear message in the envelope', async () => {
    const created = await root.post('/api/channel/', { name: 'new-palm', type: CHANNEL_TYPE.PALM, key: 'AIza-new', models: 'chat-bison-001' }).set('Accept-Language', 'en').expect(200);
    expect(created.body).toMatchObject({ success: false, message: expect.stringContaining('PaLM') });
    const listed = await root.get('/api/channel/?p=1&page_size=50').expect(200);
    expect((listed.body.data.items as Array<{ name: string }>).map((channel) => channel.name)).not.toContain('new-palm');

    const openaiChannel = (listed.body.data.items as Array<{ id: number; name: string }>).find((channel) => channel.name === 'openai-bison')!;
    const switched = await root.put('/api/channel/', { id: openaiChannel.id, type: CHANNEL_TYPE.PALM }).set('Accept-Language', 'en').expect(200);
    expect(switched.body).toMatchObject({ success: false, message: expect.stringContaining('PaLM') });
    expect((await root.get(`/api/channel/${openaiChannel.id}`).expect(200)).body.data.type).toBe(CHANNEL_TYPE.OPENAI);
  });

  it('lists an existing PaLM2 channel and shows it, without its key', async () => {
    const listed = await root.get('/api/channel/?p=1&page_size=50').expect(200);
    expect(listed.body.data.items).toContainEqual(expect.objectContaining({ id: palm, type: CHANNEL_TYPE.PALM, name: 'old-palm', status: 1 }));
    const shown = await root.get(`/api/channel/${palm}`).expect(200);
    expect(shown.body).toMatchObject({ success: true, data: { id: palm, type: CHANNEL_TYPE.PALM, models: 'chat-bison-001,text-bison-001', key: '' } });
    expect(JSON.stringify([listed.body, shown.body])).not.toContain('AIza-old-palm-key');
  });

  it('never routes to it: a model only it lists is refused clearly, a model another channel serves is answered there', async () => {
    const refused = await openai.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 404, code: 'model_not_found' });
    expect(String((refused as Error).message)).toContain('PaLM2');

    const answered = await openai.chat.completions.create({ model: 'text-bison-001', messages: [{ role: 'user', content: 'hi' }] });
    expect(answered.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(openaiUpstream.requests).toHaveLength(1);
    expect(palmHost.requests).toHaveLength(0);
  });

  it('can still be disabled (a patch, or the editor’s full save with its type) and deleted', async () => {
    const patched = await root.put('/api/channel/', { id: palm, status: 2 }).set('Accept-Language', 'en').expect(200);
    expect(patched.body).toMatchObject({ success: true, data: { id: palm, status: 2 } });

    const saved = await root.put('/api/channel/', { id: palm, name: 'old-palm', type: CHANNEL_TYPE.PALM, key: '', models: 'chat-bison-001,text-bison-001', group: 'default', status: 1 }).set('Accept-Language', 'en').expect(200);
    expect(saved.body).toMatchObject({ success: true, data: { id: palm, type: CHANNEL_TYPE.PALM, status: 1 } });
    // Enabled again, it is still never routed to.
    expect(await openai.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)).toMatchObject({ status: 404 });
    expect(palmHost.requests).toHaveLength(0);

    expect((await root.delete(`/api/channel/${palm}`).expect(200)).body).toMatchObject({ success: true });
    expect((await root.get(`/api/channel/${palm}`).set('Accept-Language', 'en').expect(200)).body).toMatchObject({ success: false, message: 'Channel not found, refresh and retry' });
  });
});
