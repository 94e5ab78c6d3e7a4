import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { APIError } from 'openai';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

interface SeenRequest {
  path: string;
  authorization?: string;
}

/** A loopback server answering by path; `routes` may answer a redirect. */
async function startServer(route: (path: string) => { status: number; location?: string; json?: unknown }): Promise<{ url: string; seen: SeenRequest[]; stop(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ path: request.url ?? '/', authorization: request.headers.authorization });
    const answer = route(request.url ?? '/');
    const body = answer.json === undefined ? '' : JSON.stringify(answer.json);
    response.writeHead(answer.status, { ...(answer.location ? { location: answer.location } : {}), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('redirects of non-relay fetches: followed hop by hop through the outbound guard', () => {
  let app: TestApp;
  let seed: RelaySeed;
  let root: Session;
  let provider: Awaited<ReturnType<typeof startServer>>;
  let elsewhere: Awaited<ReturnType<typeof startServer>>;
  let subscriptionRedirect = '/moved/subscription';

  beforeAll(async () => {
    elsewhere = await startServer(() => ({ status: 200, json: { total_usage: 2500 } }));
    provider = await startServer((path) => {
      if (path === '/v1/dashboard/billing/subscription') return { status: 302, location: subscriptionRedirect };
      if (path === '/moved/subscription') return { status: 200, json: { hard_limit_usd: 100 } };
      if (path === '/loop') return { status: 302, location: '/loop' };
      if (path.startsWith('/v1/dashboard/billing/usage')) return { status: 307, location: `${elsewhere.url}/usage` };
      if (path === '/v1/chat/completions') return { status: 307, location: `${elsewhere.url}/v1/chat/completions` };
      return { status: 404, json: {} };
    });
    // Loopback is allowed (as root would for a local proxy); metadata addresses never are.
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
  });
  afterAll(async () => {
    await app.stop();
    await provider.stop();
    await elsewhere.stop();
  });

  it('follows a balance query through its redirects, without sending the key past the first host', async () => {
    subscriptionRedirect = '/moved/subscription';
    const id = await seed.createChannel({ base_url: provider.url, models: 'm', key: 'sk-balance-key' });
    const answer = await root.get(`/api/channel/update_balance/${id}`);
    expect(answer.body).toMatchObject({ success: true, balance: 75 });
    expect(provider.seen.find((seen) => seen.path === '/moved/subscription')?.authorization).toBe('Bearer sk-balance-key');
    expect(elsewhere.seen).toEqual([{ path: '/usage', authorization: undefined }]);
  });

  it.each([
    ['to a metadata address', 'http://169.254.169.254/latest/meta-data/', 'always refused'],
    ['to a numeric-IP trick', 'http://0xa9fea9fe/latest/meta-data/', 'always refused'],
    ['in a loop', '/loop', 'too many redirects'],
  ])('refuses a redirect %s', async (_what, location, reason) => {
    subscriptionRedirect = location;
    const id = await seed.createChannel({ base_url: provider.url, models: 'm', key: 'sk-balance-key' });
    const answer = await root.get(`/api/channel/update_balance/${id}`).set('Accept-Language', 'en');
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toContain(reason);
    expect(provider.seen.filter((seen) => seen.path === '/loop').length).toBeLessThanOrEqual(6);
  });

  it('follows no redirect on the relay: the key stays with the channel, the call fails as the channel\'s fault and is not charged', async () => {
    await seed.deleteAllChannels();
    await seed.createChannel({ base_url: provider.url, models: 'redirect-model', key: 'sk-relay-key' });
    const alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'redirect-model': 1 }));
    await seed.setUserQuota(alice.id, 1_000_000);
    const client: OpenAI = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
    elsewhere.seen.length = 0;
    const failure = await client.chat.completions.create({ model: 'redirect-model', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).status).toBe(502);
    expect(elsewhere.seen).toEqual([]);
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(1_000_000);
    expect(await seed.consumeLogs({ userId: alice.id })).toEqual([]);
  });
});
