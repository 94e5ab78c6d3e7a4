import OpenAI, { toFile } from 'openai';
import { registerUser, type Session } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import type { TestApp } from './support/test-app';

/** What OpenAI clients and balance-showing chat apps expect of the API beyond chat. */
describe('relay: models.retrieve, image edits, unimplemented APIs, billing dashboard', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let alice: Session;
  let token: { id: number; key: string; apiKey: string };
  let client: OpenAI;

  beforeAll(async () => {
    ({ app, upstream, seed } = await startRelayTestbed());
    alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'gpt-image-1': 5, 'gpt-test': 1 }));
    await seed.setUserQuota(alice.id, 2_000_000, { used_quota: 500_000 });
    token = await seed.createToken(alice.id, { remain_quota: 1_000_000, used_quota: 250_000, expired_time: -1 });
    await seed.createChannel({ base_url: upstream.url, models: 'gpt-image-1,gpt-test' });
    client = openaiClient(app, token.apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('retrieves a model the token may use, and answers 404 model_not_found otherwise', async () => {
    expect(await client.models.retrieve('gpt-test')).toMatchObject({ id: 'gpt-test', object: 'model' });
    const missing = await client.models.retrieve('gpt-unknown').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.APIError>).code).toBe('model_not_found');
  });

  it('relays a multipart image edit and bills its reported usage', async () => {
    upstream.handler = () => ({ status: 200, json: { created: 1700000000, data: [{ b64_json: 'aGk=' }], usage: { input_tokens: 50, output_tokens: 100, total_tokens: 150 } } });
    const result = await client.images.edit({ model: 'gpt-image-1', image: await toFile(Buffer.from('png-bytes'), 'in.png', { type: 'image/png' }), prompt: 'add a hat' });
    expect(result.data?.[0].b64_json).toBe('aGk=');
    const sent = upstream.requests[0];
    expect(sent.path).toBe('/v1/images/edits');
    expect(String(sent.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.raw.toString('latin1')).toContain('png-bytes');
    await seed.flush();
    const [log] = (await seed.consumeLogs({ tokenId: token.id })).slice(-1);
    expect(log).toMatchObject({ model_name: 'gpt-image-1', prompt_tokens: 50, completion_tokens: 100, quota: 750 });
  });

  it('answers files and fine-tuning with a clear 501 in OpenAI’s shape', async () => {
    const files = await client.files.list().catch((error: unknown) => error);
    expect((files as InstanceType<typeof OpenAI.APIError>).status).toBe(501);
    expect((files as InstanceType<typeof OpenAI.APIError>).code).toBe('not_implemented');
    const jobs = await client.fineTuning.jobs.list().catch((error: unknown) => error);
    expect((jobs as InstanceType<typeof OpenAI.APIError>).status).toBe(501);
  });

  it('answers the billing dashboard with the token’s or the user’s balance, in dollars', async () => {
    const get = async (path: string, apiKey = token.apiKey) => {
      const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(response.headers.get('content-type')).toContain('application/json');
      return (await response.json()) as Record<string, unknown>;
    };
    await seed.flush();
    const tokenRow = await seed.tokenQuota(token.id);
    const user = await seed.userQuota(alice.id);
    // The token: (remaining + used) / 500,000 quota per dollar; usage in cents. Requests move quota from remaining to used, never the sum.
    expect(tokenRow.remain_quota + tokenRow.used_quota).toBe(1_250_000);
    for (const prefix of ['', '/v1']) {
      expect(await get(`${prefix}/dashboard/billing/subscription`)).toEqual({ object: 'billing_subscription', has_payment_method: true, soft_limit_usd: 2.5, hard_limit_usd: 2.5, system_hard_limit_usd: 2.5, access_until: 0 });
      expect(await get(`${prefix}/dashboard/billing/usage?start_date=2024-01-01&end_date=2024-02-01`)).toEqual({ object: 'list', total_usage: (tokenRow.used_quota / 500_000) * 100 });
    }
    await seed.setOption('DisplayTokenStatEnabled', false);
    expect(await get('/dashboard/billing/subscription')).toMatchObject({ hard_limit_usd: (user.quota + user.used_quota) / 500_000 });
    expect(await get('/v1/dashboard/billing/usage')).toEqual({ object: 'list', total_usage: (user.used_quota / 500_000) * 100 });
    await seed.setOption('DisplayTokenStatEnabled', true);
    const refused = await fetch(`${app.baseUrl}/dashboard/billing/subscription`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(refused.status).toBe(401);
  });
});
