import { createHmac } from 'node:crypto';
import { OptionsService } from '../src/modules/options/options.service';
import { MidjourneyPollerService } from '../src/modules/tasks/midjourney/midjourney-poller.service';
import { login, registerUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot, type Session } from './support/accounts';
import { CAT_PNG, geminiReply } from './support/mock-gemini';
import { MJ_SECRET, MockMidjourneyProxy } from './support/mock-task-upstreams';
import { MOCK_REPLY_TEXT, MockUpstream, type ReceivedRequest } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { InstancePair, startInstancesOnRedis } from './support/redis-instances';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const MODEL = 'rs-model';

/** One relay call as any client sends it: status, parsed body and the Retry-After header. */
async function relay(app: TestApp, apiKey: string, path = '/v1/chat/completions', body: object = chatBody('hello')): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null; answeredAt: number }> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  const answeredAt = Date.now();
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, retryAfter: response.headers.get('retry-after'), answeredAt };
}

/**
 * A refusal's Retry-After: the whole seconds left in the current one-minute window when the
 * gateway answered, which was before the client read the answer (by up to a few seconds when
 * 100 calls run at once on a busy machine).
 */
function expectRetryAfterWindowEnd(answer: { retryAfter: string | null; answeredAt: number }): void {
  expect(answer.retryAfter).toMatch(/^\d+$/);
  const secondsLeftWhenRead = (60_000 - (answer.answeredAt % 60_000)) / 1000;
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(Math.floor(secondsLeftWhenRead));
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(secondsLeftWhenRead + 5);
}

function chatBody(content: string, model = MODEL): object {
  return { model, messages: [{ role: 'user', content }] };
}

/** Limits count in fixed one-minute windows: a test's calls must not straddle a window's end (waits up to 15 s). */
async function clearOfWindowEnd(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}

const errorMessage = (body: Record<string, unknown>) => String((body.error as { message?: unknown } | undefined)?.message ?? '');

describe('relay settings: model rate limit, sensitive words, auto groups, worker', () => {
  let app: TestApp;
  let first: MockUpstream;
  let second: MockUpstream;
  let third: MockUpstream;
  let seed: RelaySeed;
  let userCount = 0;

  /** A fresh user with quota and a limited token, so limits and balances of one test never touch another's. */
  const newCaller = async (tokenFields: Record<string, unknown> = {}): Promise<{ user: Session; apiKey: string; tokenId: number }> => {
    const user = await registerUser(app, `caller${++userCount}`);
    await seed.setUserQuota(user.id, 10_000_000);
    const token = await seed.createToken(user.id, tokenFields);
    return { user, apiKey: token.apiKey, tokenId: token.id };
  };

  beforeAll(async () => {
    first = await new MockUpstream().start();
    second = await new MockUpstream().start();
    third = await new MockUpstream().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    await setupRoot(app);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1, 'gemini-2.5-flash': 1, 'alert-model': 1000 }));
  });
  afterAll(async () => {
    await app.stop();
    await Promise.all([first.stop(), second.stop(), third.stop()]);
  });
  beforeEach(async () => {
    for (const upstream of [first, second, third]) upstream.reset();
    await seed.deleteAllChannels();
    await seed.createChannel({ name: 'default-channel', base_url: first.url, models: MODEL });
    await seed.setOption('RetryTimes', 0);
  });

  describe('model request rate limit', () => {
    afterEach(async () => {
      await seed.setOption('ModelRequestRateLimitEnabled', false);
      await seed.setOption('ModelRequestRateLimitCount', -1);
      await seed.setOption('ModelRequestRateLimitSuccessCount', 1000);
      await seed.setOption('ModelRequestRateLimitGroup', '{}');
    });

    it('lets exactly the limit through out of 100 concurrent calls, and answers the rest 429 in OpenAI shape', async () => {
      const { apiKey } = await newCaller();
      await seed.setOption('ModelRequestRateLimitEnabled', true);
      await seed.setOption('ModelRequestRateLimitCount', 10);
      await clearOfWindowEnd();
      const answers = await Promise.all(Array.from({ length: 100 }, () => relay(app, apiKey)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(90);
      expect(refused[0].body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(errorMessage(refused[0].body)).toMatch(/^Request limit reached: at most 10 requests \(failed ones included\) in 1 minute\. Try again later/);
      expectRetryAfterWindowEnd(refused[0]);
      expect(first.requests).toHaveLength(10);
      expect(answers.find((answer) => answer.status === 200)!.retryAfter).toBeNull();
    });

    it('counts successes exactly under concurrency: a failed request gives its success back', async () => {
      const { apiKey } = await newCaller();
      await seed.setOption('ModelRequestRateLimitEnabled', true);
      await seed.setOption('ModelRequestRateLimitSuccessCount', 5);
      await clearOfWindowEnd();
      first.handler = () => ({ status: 500, json: { error: { message: 'upstream broke' } } });
      expect((await relay(app, apiKey)).status).toBe(500);
      expect((await relay(app, apiKey)).status).toBe(500);
      first.handler = undefined;
      const answers = await Promise.all(Array.from({ length: 30 }, () => relay(app, apiKey)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(25);
      expect(errorMessage(answers.find((answer) => answer.status === 429)!.body)).toContain('at most 5 successful requests in 1 minute');
    });

    it("applies a group's own limits, and answers in the client's format (Claude, Gemini)", async () => {
      await seed.createChannel({ name: 'vip-channel', base_url: second.url, models: MODEL, group: 'vip' });
      const { apiKey } = await newCaller({ group: 'vip' });
      const other = await newCaller();
      await seed.setOption('ModelRequestRateLimitEnabled', true);
      await seed.setOption('ModelRequestRateLimitCount', 100);
      await seed.setOption('ModelRequestRateLimitGroup', JSON.stringify({ vip: [2, 0] }));
      await clearOfWindowEnd();
      expect((await relay(app, apiKey)).status).toBe(200);
      expect((await relay(app, apiKey, '/v1/messages', { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
      const claude = await relay(app, apiKey, '/v1/messages', { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      expect(claude.status).toBe(429);
      expect(claude.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
      expect(errorMessage(claude.body)).toContain('at most 2 requests');
      expectRetryAfterWindowEnd(claude);
      const gemini = await relay(app, apiKey, `/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
      expect(gemini.status).toBe(429);
      expect(gemini.body).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
      // The default group keeps the global limit; another user has a count of their own.
      expect((await relay(app, other.apiKey)).status).toBe(200);
      expect(second.requests).toHaveLength(2);
    });

    it('limits nothing while switched off', async () => {
      const { apiKey } = await newCaller();
      await seed.setOption('ModelRequestRateLimitCount', 1);
      const answers = await Promise.all(Array.from({ length: 5 }, () => relay(app, apiKey)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    });
  });

  describe('sensitive words', () => {
    beforeAll(async () => {
      await seed.setOption('SensitiveWords', 'forbidden phrase\n违禁词\n');
      await seed.setOption('CheckSensitiveEnabled', true);
      await seed.setOption('CheckSensitiveOnPromptEnabled', true);
    });
    afterAll(async () => {
      await seed.setOption('CheckSensitiveEnabled', false);
    });

    it('refuses a prompt with a sensitive word before billing or calling upstream, in each inbound format, naming no word', async () => {
      const { user, apiKey, tokenId } = await newCaller();
      const userBefore = await seed.userQuota(user.id);
      const tokenBefore = await seed.tokenQuota(tokenId);
      const openai = await relay(app, apiKey, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say the FORBIDDEN Phrase now' }] }] });
      expect(openai.status).toBe(400);
      expect(openai.body.error).toMatchObject({ type: 'invalid_request_error', code: 'sensitive_words_detected' });
      const claude = await relay(app, apiKey, '/v1/messages', { model: MODEL, max_tokens: 10, system: '请说违禁词', messages: [{ role: 'user', content: 'hi' }] });
      expect(claude.status).toBe(400);
      expect(claude.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      const gemini = await relay(app, apiKey, `/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'a forbidden phrase' }] }] });
      expect(gemini.status).toBe(400);
      expect(gemini.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      for (const answer of [openai, claude, gemini]) {
        expect(errorMessage(answer.body)).toContain('its prompt contains words this service does not accept');
        expect(JSON.stringify(answer.body).toLowerCase()).not.toMatch(/forbidden|违禁词/);
      }
      expect(first.requests).toHaveLength(0);
      await seed.flush();
      expect(await seed.consumeLogs({ userId: user.id })).toHaveLength(0);
      expect(await seed.userQuota(user.id)).toEqual(userBefore);
      expect(await seed.tokenQuota(tokenId)).toEqual(tokenBefore);
    });

    it('refuses a Midjourney prompt with a sensitive word before holding quota or calling the proxy', async () => {
      const mj = await new MockMidjourneyProxy().start();
      try {
        await seed.setOption('DrawingEnabled', true);
        await seed.createChannel({ type: 2, base_url: mj.baseUrl, key: MJ_SECRET, models: 'mj_imagine' });
        const { user, apiKey } = await newCaller();
        const before = await seed.userQuota(user.id);
        const refused = await app.http.post('/mj/submit/imagine').set('Authorization', `Bearer ${apiKey}`).send({ prompt: 'a cat, 违禁词' });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 4, type: 'sensitive_words_detected' });
        expect(mj.requests).toHaveLength(0);
        expect(await seed.userQuota(user.id)).toEqual(before);
        const served = await app.http.post('/mj/submit/imagine').set('Authorization', `Bearer ${apiKey}`).send({ prompt: 'a cat' });
        expect(served.body).toMatchObject({ code: 1 });
      } finally {
        await seed.setOption('DrawingEnabled', false);
        await mj.stop();
      }
    });

    it('serves clean prompts, and every prompt once the prompt check is off', async () => {
      const { apiKey } = await newCaller();
      expect((await relay(app, apiKey, '/v1/chat/completions', chatBody('a forbidden word and a phrase, apart'))).status).toBe(200);
      await seed.setOption('CheckSensitiveOnPromptEnabled', false);
      const answer = await relay(app, apiKey, '/v1/chat/completions', chatBody('the forbidden phrase'));
      await seed.setOption('CheckSensitiveOnPromptEnabled', true);
      expect(answer.status).toBe(200);
      expect(first.requests).toHaveLength(2);
    });

    it('checks the new list as soon as it is saved', async () => {
      const { apiKey } = await newCaller();
      await seed.setOption('SensitiveWords', 'brand-new-word');
      const refused = await relay(app, apiKey, '/v1/chat/completions', chatBody('a Brand-New-Word here'));
      const served = await relay(app, apiKey, '/v1/chat/completions', chatBody('the forbidden phrase'));
      await seed.setOption('SensitiveWords', 'forbidden phrase\n违禁词');
      expect([refused.status, served.status]).toEqual([400, 200]);
    });
  });

  describe('auto group', () => {
    beforeAll(async () => {
      await seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 2, svip: 3 }));
      await seed.setOption('AutoGroups', JSON.stringify(['svip', 'vip', 'default']));
      await seed.setOption('DefaultUseAutoGroup', true);
    });
    afterAll(async () => {
      await seed.setOption('DefaultUseAutoGroup', false);
      await seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    });
    beforeEach(async () => {
      await seed.deleteAllChannels();
      await seed.createChannel({ name: 'svip-channel', base_url: third.url, models: MODEL, group: 'svip' });
      await seed.createChannel({ name: 'vip-channel', base_url: first.url, models: MODEL, group: 'vip' });
      await seed.createChannel({ name: 'default-channel', base_url: second.url, models: MODEL, group: 'default' });
    });

    it('serves from the first listed group the user may use, billed at that group', async () => {
      const { user, apiKey } = await newCaller({ group: 'auto' });
      const answer = await relay(app, apiKey);
      expect(answer.status).toBe(200);
      expect(first.requests).toHaveLength(1);
      expect(third.requests).toHaveLength(0);
      await seed.flush();
      const [log] = await seed.consumeLogs({ userId: user.id });
      expect(log).toMatchObject({ group: 'vip', quota: 38 });
      expect(log.other).toMatchObject({ group_ratio: 2 });
    });

    it('fails over to the next group and bills at the group that served', async () => {
      await seed.setOption('RetryTimes', 2);
      first.handler = () => ({ status: 500, json: { error: { message: 'vip channel broke' } } });
      const { user, apiKey } = await newCaller({ group: 'auto' });
      const before = await seed.userQuota(user.id);
      const answer = await relay(app, apiKey);
      expect(answer.status).toBe(200);
      expect((answer.body.choices as Array<{ message: { content: string } }>)[0].message.content).toBe(MOCK_REPLY_TEXT);
      expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
      await seed.flush();
      const [log] = await seed.consumeLogs({ userId: user.id });
      expect(log).toMatchObject({ group: 'default', quota: 19 });
      expect(log.other).toMatchObject({ group_ratio: 1 });
      expect(before.quota - (await seed.userQuota(user.id)).quota).toBe(19);
    });

    it('skips groups without a channel for the model, and refuses the auto group while it is switched off', async () => {
      await seed.deleteAllChannels();
      await seed.createChannel({ name: 'default-channel', base_url: second.url, models: MODEL, group: 'default' });
      await seed.createChannel({ name: 'svip-only', base_url: third.url, models: 'svip-model', group: 'svip' });
      const { apiKey } = await newCaller({ group: 'auto' });
      const listed = await fetch(`${app.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(((await listed.json()) as { data: { id: string }[] }).data.map((model) => model.id)).toEqual([MODEL]);
      expect((await relay(app, apiKey)).status).toBe(200);
      expect(second.requests).toHaveLength(1);
      await seed.setOption('DefaultUseAutoGroup', false);
      const refused = await relay(app, apiKey);
      await seed.setOption('DefaultUseAutoGroup', true);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'group_not_allowed' });
    });
  });

  describe('pass-through', () => {
    it("sends the client's bytes untouched to a channel of its format while global.pass_through_request_enabled is on", async () => {
      await seed.deleteAllChannels();
      await seed.createChannel({ base_url: first.url, models: MODEL, model_mapping: JSON.stringify({ [MODEL]: 'upstream-model' }), param_override: JSON.stringify({ temperature: 0.1 }) });
      const { apiKey } = await newCaller();
      const body = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], temperature: 0.9 };
      expect((await relay(app, apiKey, '/v1/chat/completions', body)).status).toBe(200);
      expect(first.requests[0].body).toMatchObject({ model: 'upstream-model', temperature: 0.1 });
      await seed.setOption('global.pass_through_request_enabled', true);
      const answer = await relay(app, apiKey, '/v1/chat/completions', body);
      await seed.setOption('global.pass_through_request_enabled', false);
      expect(answer.status).toBe(200);
      expect(first.requests[1].raw.toString('utf8')).toBe(JSON.stringify(body));
    });
  });

  describe('worker', () => {
    const WORKER_KEY = 'worker-valid-key';
    let worker: MockUpstream;
    const workerCalls = () => worker.requests.map((request: ReceivedRequest) => request.body as { url: string; key: string; method: string; headers: Record<string, string>; body?: unknown });

    beforeAll(async () => {
      worker = await new MockUpstream().start();
      worker.handler = (request) => {
        const { url } = request.body as { url: string };
        if (url.endsWith('/cat.png')) return { status: 200, text: CAT_PNG, contentType: 'image/png' };
        if (url.endsWith('/v1/users/me/balance')) return { status: 200, json: { code: 0, data: { available_balance: 12.5 }, status: true } };
        return { status: 200, json: { ok: true } };
      };
      await seed.setOption('WorkerUrl', `${worker.url}/`);
      await seed.setOption('WorkerValidKey', WORKER_KEY);
    });
    afterAll(async () => {
      await seed.setOption('WorkerUrl', '');
      await worker.stop();
    });
    beforeEach(() => worker.requests.splice(0));

    it('fetches image URLs for a provider through the worker', async () => {
      first.handler = geminiReply;
      await seed.createChannel({ name: 'gemini', type: 24, base_url: first.url, models: 'gemini-2.5-flash', key: 'gemini-key' });
      const { apiKey } = await newCaller();
      const answer = await relay(app, apiKey, '/v1/chat/completions', {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://images.example.test/cat.png' } }] }],
      });
      expect(answer.status).toBe(200);
      expect(worker.requests[0].path).toBe('/');
      expect(workerCalls()).toEqual([{ url: 'https://images.example.test/cat.png', key: WORKER_KEY, method: 'GET', headers: {} }]);
      const sent = first.requests.find((request) => request.path.includes(':generateContent'))!.body as { contents: Array<{ parts: unknown[] }> };
      expect(sent.contents[0].parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: CAT_PNG.toString('base64') } });
    });

    it('queries channel balances through the worker', async () => {
      const root = await login(app, ROOT_USERNAME, ROOT_PASSWORD);
      const id = await seed.createChannel({ name: 'moonshot', type: 25, base_url: '', models: 'moonshot-v1', key: 'sk-moonshot' });
      const answer = await root.get(`/api/channel/update_balance/${id}/`);
      expect(answer.body).toMatchObject({ success: true, data: { balance: 12.5 } });
      expect(workerCalls()).toEqual([{ url: 'https://api.moonshot.cn/v1/users/me/balance', key: WORKER_KEY, method: 'GET', headers: { authorization: 'Bearer sk-moonshot' } }]);
    });

    it('posts quota-alert webhooks through the worker, signed body included', async () => {
      await seed.createChannel({ base_url: second.url, models: 'alert-model' });
      const { user, apiKey } = await newCaller({ unlimited_quota: true });
      const saved = await user.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 1_000_000, webhook_url: 'https://hooks.example.test/alert', webhook_secret: 'hook-secret' });
      expect(saved.body.success).toBe(true);
      await seed.setUserQuota(user.id, 1_020_000);
      for (let call = 0; call < 2; call++) {
        expect((await relay(app, apiKey, '/v1/chat/completions', chatBody('hi', 'alert-model'))).status).toBe(200);
        await seed.flush();
      }
      await until(() => worker.requests.length > 0);
      const [hook] = workerCalls();
      expect(hook).toMatchObject({ url: 'https://hooks.example.test/alert', key: WORKER_KEY, method: 'POST', headers: { authorization: 'Bearer hook-secret' } });
      expect(hook.body).toMatchObject({ type: 'quota_exceed', values: ['$1.96', '$2.00'] });
      expect(hook.headers['x-webhook-signature']).toBe(createHmac('sha256', 'hook-secret').update(JSON.stringify(hook.body)).digest('hex'));
    });

    it("calls a Midjourney client's notifyHook through the worker", async () => {
      const mj = await new MockMidjourneyProxy().start();
      try {
        await seed.setOption('DrawingEnabled', true);
        await seed.setOption('MjNotifyEnabled', true);
        await seed.createChannel({ type: 2, base_url: mj.baseUrl, key: MJ_SECRET, models: 'mj_imagine' });
        const { apiKey } = await newCaller();
        const submitted = await app.http.post('/mj/submit/imagine').set('Authorization', `Bearer ${apiKey}`).send({ prompt: 'a fox', notifyHook: 'https://hooks.example.test/mj' });
        expect(submitted.body).toMatchObject({ code: 1 });
        await app.app.get(MidjourneyPollerService).pollOnce();
        await until(() => worker.requests.length > 0);
        const [hook] = workerCalls();
        expect(hook).toMatchObject({ url: 'https://hooks.example.test/mj', key: WORKER_KEY, method: 'POST' });
        expect(hook.body).toMatchObject({ id: submitted.body.result, status: 'IN_PROGRESS' });
      } finally {
        await seed.setOption('MjNotifyEnabled', false);
        await seed.setOption('DrawingEnabled', false);
        await mj.stop();
      }
    });

    it("keeps the outbound guard on the worker's own address", async () => {
      await seed.createChannel({ name: 'gemini', type: 24, base_url: first.url, models: 'gemini-2.5-flash', key: 'gemini-key' });
      const { apiKey } = await newCaller();
      await seed.setOption('fetch_setting.allow_private_ip', false);
      const answer = await relay(app, apiKey, '/v1/chat/completions', {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://images.example.test/cat.png' } }] }],
      });
      await seed.setOption('fetch_setting.allow_private_ip', true);
      expect(answer.status).toBe(400);
      expect(errorMessage(answer.body)).toContain('An image URL in the request could not be fetched');
      expect(worker.requests).toHaveLength(0);
    });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

/** Two instances on one database and one Redis share one model request limit. Runs when TEST_REDIS_URL is set. */
(redisUrl ? describe : describe.skip)('model request rate limit across instances on one Redis', () => {
  let pair: InstancePair;
  let firstApp: TestApp;
  let secondApp: TestApp;
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    pair = await startInstancesOnRedis(redisUrl!);
    ({ first: firstApp, second: secondApp } = pair);
  });
  afterAll(async () => {
    await pair.stop();
    await upstream.stop();
  });

  it('lets exactly the limit through out of 100 concurrent calls spread over both instances', async () => {
    const seed = new RelaySeed(firstApp);
    await setupRoot(firstApp);
    const user = await registerUser(firstApp, 'shared1');
    await seed.setUserQuota(user.id, 10_000_000);
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await seed.createChannel({ base_url: upstream.url, models: MODEL });
    const { apiKey } = await seed.createToken(user.id);
    // The second instance learns of the channel and token through Redis; wait until it serves them.
    let ready = false;
    for (let attempt = 0; attempt < 50 && !ready; attempt++) {
      ready = (await relay(secondApp, apiKey)).status === 200;
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(true);
    await seed.setOption('ModelRequestRateLimitCount', 10);
    await seed.setOption('ModelRequestRateLimitEnabled', true);
    const secondOptions = secondApp.app.get(OptionsService);
    await until(() => secondOptions.get('ModelRequestRateLimitEnabled') && secondOptions.get('ModelRequestRateLimitCount') === 10);
    expect([secondOptions.get('ModelRequestRateLimitEnabled'), secondOptions.get('ModelRequestRateLimitCount')]).toEqual([true, 10]);
    upstream.reset();
    await clearOfWindowEnd();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => relay(index % 2 === 0 ? firstApp : secondApp, apiKey)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(90);
    expectRetryAfterWindowEnd(answers.find((answer) => answer.status === 429)!);
    expect(upstream.requests).toHaveLength(10);
  });
});
