import OpenAI, { APIError } from 'openai';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { chatCompletion, MOCK_REPLY_TEXT, MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startTestApp, TestApp } from './support/test-app';

const chat = (client: OpenAI) => client.chat.completions.create({ model: 'limits-model', messages: [{ role: 'user', content: 'hi' }] });

describe('input limits: JSON-only bodies, capped upstream answers, channel faults that fail over', () => {
  let app: TestApp;
  let first: MockUpstream;
  let second: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let client: OpenAI;
  let token: { id: number; apiKey: string };

  beforeAll(async () => {
    first = await new MockUpstream().start();
    second = await new MockUpstream().start();
    app = await startTestApp({ MAX_RESPONSE_BODY_MB: '1' });
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'limits-model': 1 }));
    await seed.setOption('RetryTimes', 2);
    await seed.setUserQuota(alice.id, 10_000_000);
    token = await seed.createToken(alice.id, { remain_quota: 1_000_000 });
    client = openaiClient(app, token.apiKey);
  });
  afterAll(async () => {
    await app.stop();
    await first.stop();
    await second.stop();
  });
  beforeEach(async () => {
    first.reset();
    second.reset();
    await seed.deleteAllChannels();
  });

  it('answers 415 to a relay call whose JSON body is declared as another type, and relays nothing', async () => {
    await seed.createChannel({ base_url: first.url, models: 'limits-model' });
    const body = JSON.stringify({ model: 'limits-model', messages: [{ role: 'user', content: 'hi' }] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await fetch(`${app.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': type }, body });
      expect(answer.status).toBe(415);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
    }
    const claude = await fetch(`${app.baseUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': token.apiKey, 'content-type': 'text/plain' }, body: JSON.stringify({ model: 'limits-model', max_tokens: 5, messages: [] }) });
    expect(claude.status).toBe(415);
    expect(((await claude.json()) as { type: string }).type).toBe('error');
    await seed.setOption('DrawingEnabled', true);
    const task = await fetch(`${app.baseUrl}/mj/submit/imagine`, { method: 'POST', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'text/plain' }, body: JSON.stringify({ prompt: 'a fox' }) });
    expect(task.status).toBe(415);
    expect(first.requests).toHaveLength(0);
    const json = await fetch(`${app.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json; charset=utf-8' }, body });
    expect(json.status).toBe(200);
  });

  it('answers 415 on the console API for a body that is not JSON, and still takes JSON', async () => {
    const credentials = JSON.stringify({ username: 'alice', password: 'user-pass-1' });
    const plain = await app.http.post('/api/user/login').set('content-type', 'text/plain').set('Accept-Language', 'en').send(credentials);
    expect(plain.status).toBe(415);
    expect(plain.body).toEqual({ success: false, message: 'The request body must be JSON (Content-Type: application/json)', data: null });
    const form = await app.http.post('/api/user/login').type('form').send({ username: 'alice', password: 'user-pass-1' });
    expect(form.status).toBe(415);
    const json = await app.http.post('/api/user/login').set('content-type', 'application/json').send(credentials);
    expect(json.body.success).toBe(true);
  });

  it('answers a page number past the safe-integer range with an empty page on every paged list, never a 500', async () => {
    const huge = '99999999999999999999999';
    const lists: Array<[Session, string]> = [
      [alice, '/api/token/'],
      [alice, '/api/log/self'],
      [alice, '/api/user/topup/self'],
      [alice, '/api/task/self'],
      [root, '/api/user/'],
      [root, '/api/channel/'],
      [root, '/api/log/'],
      [root, '/api/redemption/'],
      [root, '/api/mj/'],
    ];
    for (const [session, path] of lists) {
      const answer = await session.get(`${path}?p=${huge}&page_size=${huge}`);
      expect([path, answer.status, answer.body.success, answer.body.data?.items]).toEqual([path, 200, true, []]);
    }
  });

  it('answers an id past the id columns\' range (INT, PostgreSQL\'s integer) as an invalid id, and searches for such a number as text, never a 500', async () => {
    const huge = 99_999_999_999;
    const refused: Array<[Session, 'get' | 'delete' | 'put' | 'post', string, object?]> = [
      [root, 'get', `/api/user/${huge}`],
      [root, 'get', `/api/channel/${huge}`],
      [root, 'delete', `/api/channel/${huge}`],
      [alice, 'get', `/api/token/${huge}`],
      [alice, 'delete', `/api/token/${huge}`],
      [root, 'get', `/api/redemption/${huge}`],
      [root, 'get', `/api/channel/test_upstream/${huge}`],
      [root, 'put', '/api/user/', { id: huge, display_name: 'x' }],
      [root, 'post', '/api/user/manage', { id: huge, action: 'disable' }],
      [root, 'put', '/api/channel/', { id: huge, name: 'x' }],
      [alice, 'put', '/api/token/', { id: huge, name: 'x' }],
      [root, 'put', '/api/redemption/', { id: huge, name: 'x' }],
      [root, 'post', '/api/channel/batch', { ids: [huge] }],
    ];
    for (const [session, method, path, body] of refused) {
      const answer = await (method === 'get' || method === 'delete' ? session[method](path) : session[method](path, body)).set('Accept-Language', 'en');
      expect([method, path, answer.status, answer.body]).toEqual([method, path, 200, { success: false, message: 'Invalid id', data: null }]);
    }
    const channelFilter = await root.get(`/api/log/?channel=${huge}`);
    expect([channelFilter.status, channelFilter.body.success]).toEqual([200, false]);
    for (const path of ['/api/user/search', '/api/redemption/search', '/api/channel/search']) {
      const answer = await root.get(`${path}?keyword=${huge}`);
      expect([path, answer.status, answer.body.success, answer.body.data?.items]).toEqual([path, 200, true, []]);
    }
  });

  it('answers 400 on the console API for a body that does not decompress as its Content-Encoding says', async () => {
    const credentials = JSON.stringify({ username: 'alice', password: 'user-pass-1' });
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const answer = await app.http.post('/api/user/login').set('content-type', 'application/json').set('content-encoding', encoding).set('Accept-Language', 'en').send(credentials);
      expect([encoding, answer.status, answer.body.success]).toEqual([encoding, 400, false]);
      expect(answer.body.message).toMatch(/^Bad request: /);
    }
  });

  it('answers 400, never a 500, to malformed percent-encoding in a relay path', async () => {
    await seed.setOption('DrawingEnabled', true);
    await seed.setOption('TaskEnabled', true);
    const headers = { authorization: `Bearer ${token.apiKey}`, 'x-goog-api-key': token.apiKey, 'content-type': 'application/json' };
    const calls: Array<[string, string]> = [
      ['GET', '/v1/models/%ff'],
      ['POST', '/v1beta/models/%ff:generateContent'],
      ['GET', '/mj/task/%E0%A4%A/fetch'],
      ['GET', '/mj/image/%ff'],
      ['GET', '/suno/fetch/%ff'],
    ];
    for (const [method, path] of calls) {
      const answer = await fetch(`${app.baseUrl}${path}`, { method, headers, body: method === 'POST' ? '{"contents":[]}' : undefined });
      expect([path, answer.status]).toEqual([path, 400]);
    }
  });

  it('takes a null field in a console body as not given, never a 500', async () => {
    const edits: Array<[Session, string, object]> = [
      [alice, '/api/user/self', { display_name: null }],
      [alice, '/api/token/', { id: token.id, name: null, group: null, unlimited_quota: null, model_limits_enabled: null }],
      [root, '/api/user/', { id: alice.id, remark: null, display_name: null }],
    ];
    for (const [session, path, body] of edits) {
      const answer = await session.put(path, body);
      expect([path, answer.status, answer.body.success]).toEqual([path, 200, true]);
    }
    const required = await root.put('/api/option/', { key: 'RetryTimes', value: null }).set('Accept-Language', 'en');
    expect(required.body).toMatchObject({ success: false });
    expect((await alice.get('/api/user/self')).body.data).toMatchObject({ display_name: 'alice', remark: '' });
  });

  it.each([
    ['declared in Content-Length', () => ({ status: 200, json: chatCompletion('limits-model', 'x'.repeat(2 * 1024 * 1024)) })],
    ['sent chunked', () => ({ status: 200, text: JSON.stringify(chatCompletion('limits-model', 'x'.repeat(2 * 1024 * 1024))), contentType: 'application/json' })],
  ])('answers 502 to an upstream answer over MAX_RESPONSE_BODY_MB (%s) and refunds the hold exactly', async (_how, reply) => {
    await seed.createChannel({ base_url: first.url, models: 'limits-model', priority: 10 });
    await seed.createChannel({ base_url: second.url, models: 'limits-model', priority: 0 });
    first.handler = reply;
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(token.id);
    const logsBefore = (await seed.consumeLogs({ userId: alice.id })).length;

    const failure = await chat(client).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).status).toBe(502);
    expect((failure as APIError).message).toMatch(/larger than 1 MB/);
    expect(second.requests).toHaveLength(0);

    await seed.flush();
    expect(await seed.userQuota(alice.id)).toEqual(userBefore);
    expect(await seed.tokenQuota(token.id)).toEqual(tokenBefore);
    expect(await seed.consumeLogs({ userId: alice.id })).toHaveLength(logsBefore);
  });

  it.each([
    ['a base URL that makes no URL', { base_url: 'http://bad host name' }],
    ['a key that cannot be sent as a header', { key: 'sk-control\u0001char' }],
  ])('treats %s as a fault of the channel and fails over to the next one', async (_what, broken) => {
    await seed.createChannel({ base_url: first.url, models: 'limits-model', priority: 10, ...broken });
    await seed.createChannel({ base_url: second.url, models: 'limits-model', priority: 0 });
    const answer = await chat(client);
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(second.requests).toHaveLength(1);
  });
});
