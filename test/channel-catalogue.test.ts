import { CHANNEL_TYPE_ROWS, isRelayable, SAVABLE_CHANNEL_TYPE_IDS } from '../src/modules/channels/channel-types';
import { BALANCE_QUERIES } from '../src/modules/monitoring/balance-queries';
import { ProviderRegistry } from '../src/modules/relay/providers/provider-registry';
import { MIDJOURNEY_CHANNEL_TYPES } from '../src/modules/tasks/midjourney/midjourney-relay.service';
import { SUNO_CHANNEL_TYPES } from '../src/modules/tasks/suno/suno-task';
import { setupRoot, type Session } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The catalogue against what serves it: every type the channel editor offers (and the API
 * accepts) has a relay adaptor or a task relay behind it, and no other type can be saved.
 */
describe('the channel-type catalogue', () => {
  let app: TestApp;
  let root: Session;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
  });
  afterAll(() => app.stop());

  it('has something serving every type the editor offers', () => {
    const registry = app.app.get(ProviderRegistry);
    const unserved = CHANNEL_TYPE_ROWS.filter((row) => isRelayable(row)).filter((row) => {
      if (row.servedBy === 'midjourney') return !MIDJOURNEY_CHANNEL_TYPES.includes(row.type);
      if (row.servedBy === 'suno') return !SUNO_CHANNEL_TYPES.includes(row.type);
      return registry.forChannelType(row.type) === undefined;
    });
    expect(unserved.map((row) => `${row.type} ${row.name}`)).toEqual([]);
    // And nothing serves a type the catalogue says cannot relay.
    const served = registry.supportedChannelTypes().filter((type) => !SAVABLE_CHANNEL_TYPE_IDS.includes(type));
    expect(served).toEqual([]);
  });

  it('saves a channel of every servable type and refuses every other number', async () => {
    for (const row of CHANNEL_TYPE_ROWS) {
      const key = row.keyIsJson ? JSON.stringify({ type: 'service_account', project_id: 'p', private_key: 'k', client_email: 'e@p.iam' }) : 'key-a|key-b|key-c';
      const response = await root.post('/api/channel/', { type: row.type, name: `type-${row.type}`, key, base_url: 'http://127.0.0.1:8080', other: 'acct-1', models: 'some-model', group: 'default' });
      if (isRelayable(row)) {
        // The message names the type when saving fails, so a failure says which row is wrong.
        expect({ type: row.type, success: response.body.success, message: response.body.success ? '' : response.body.message }).toEqual({ type: row.type, success: true, message: '' });
      } else {
        expect({ type: row.type, status: response.status, success: response.body.success }).toEqual({ type: row.type, status: 200, success: false });
        // Retired types say so (channel.type_retired); types nothing serves are unsupported.
        expect(response.body.message).toMatch(row.servedBy === 'retired' ? /服务商关闭/ : /不支持的渠道类型/);
      }
    }
    const unknown = await root.post('/api/channel/', { type: 9999, name: 'nothing', key: 'k', models: 'some-model' });
    expect(unknown.body).toMatchObject({ success: false, message: expect.stringMatching(/不支持的渠道类型/) });
  });

  it('gives a balance query to exactly the types whose row names a balance currency', () => {
    const withCurrency = CHANNEL_TYPE_ROWS.filter((row) => row.balance).map((row) => row.type);
    expect(Object.keys(BALANCE_QUERIES).map(Number).sort((a, b) => a - b)).toEqual(withCurrency.sort((a, b) => a - b));
  });
});
