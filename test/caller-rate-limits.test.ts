import { registerUser, type Session } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import { RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { relayChat, startRelayPair, type RelayAnswer } from './support/relay-call';
import type { TestApp } from './support/test-app';
import { openAiDuration } from '../src/modules/relay/caller-rate-limit/caller-rate-limiter.service';
import type { TokenView } from '../src/modules/tokens/token.wire';

function chat(app: TestApp, apiKey: string, extra: object = {}): Promise<RelayAnswer> {
  return relayChat(app, apiKey, { model: 'limit-model', ...extra });
}

/** Seconds as an OpenAI reset header writes them ("59.5s", "1m0s"). */
function durationSeconds(text: string | null): number {
  const match = /^(?:(\d+)m)?(?:([\d.]+)s)?(?:(\d+)ms)?$/.exec(text ?? '');
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) + Number(match[3] ?? 0) / 1000;
}

describe('RPM and TPM limits per token and user', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, upstream, seed, root, stop } = await startRelayTestbed());
    await seed.setOption('ModelRatio', JSON.stringify({ 'limit-model': 1 }));
    await seed.createChannel({ base_url: upstream.url, models: 'limit-model' });
  });
  afterAll(() => stop());

  async function limitedToken(username: string, fields: object): Promise<{ user: Session; apiKey: string }> {
    const user = await registerUser(app, username);
    await seed.setUserQuota(user.id, 10_000_000);
    const created = await user.post('/api/token/', { name: 'limited', remain_quota: 5_000_000, ...fields });
    expect(created.body.success).toBe(true);
    const token = (created.body.data as TokenView[])[0];
    expect(token).toMatchObject(fields);
    return { user, apiKey: token.key };
  }

  it('passes exactly N requests a minute, then answers 429 with honest headers', async () => {
    const { apiKey } = await limitedToken('rpmuser', { rpm_limit: 5 });
    const startedAt = Date.now();
    const answers: RelayAnswer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await chat(app, apiKey));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = answers[5];
    expect(refused.error?.code).toBe('rate_limit_exceeded');
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('5');
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    // The first request leaves the minute 60 s after it came: Retry-After is that moment, rounded up.
    const elapsed = (Date.now() - startedAt) / 1000;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(60 - elapsed));
    const reset = durationSeconds(refused.headers.get('x-ratelimit-reset-requests'));
    expect(reset).toBeGreaterThan(60 - elapsed - 1);
    expect(reset).toBeLessThanOrEqual(60);
  });

  it('passes exactly N of many concurrent requests', async () => {
    const { apiKey } = await limitedToken('rpmcrowd', { rpm_limit: 10 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => chat(app, apiKey)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30);
  });

  it('counts prompt plus completion tokens as settled against TPM, reserving the estimate meanwhile', async () => {
    // The mock bills 12 prompt + 7 completion = 19 tokens; a request reserves its estimate plus max_tokens 10.
    const { apiKey } = await limitedToken('tpmuser', { tpm_limit: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await chat(app, apiKey, { max_tokens: 10 })).status);
      await seed.flush();
    }
    // 5 × 19 = 95 settled; the sixth's reservation does not fit in 100.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await chat(app, apiKey, { max_tokens: 10 });
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('5');
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
  });

  it('gives back the reservation of a failed request, and never calls upstream for a refused one', async () => {
    const { apiKey } = await limitedToken('tpmfail', { tpm_limit: 60 });
    upstream.handler = () => ({ status: 500, json: { error: { message: 'down' } } });
    for (let i = 0; i < 3; i++) expect((await chat(app, apiKey, { max_tokens: 40 })).status).toBe(500);
    upstream.handler = undefined;
    // Failed requests hold nothing: a request reserving ~48 still fits.
    expect((await chat(app, apiKey, { max_tokens: 40 })).status).toBe(200);
    upstream.reset();
    expect((await chat(app, apiKey, { max_tokens: 50 })).status).toBe(429);
    expect(upstream.requests).toHaveLength(0);
  });

  it('limits a user over all of their tokens, set by an administrator', async () => {
    const user = await registerUser(app, 'userlimit');
    await seed.setUserQuota(user.id, 10_000_000);
    const updated = await root.put('/api/user/', { id: user.id, rpm_limit: 4 });
    expect(updated.body.data).toMatchObject({ rpm_limit: 4, tpm_limit: 0 });
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) keys.push(((await user.post('/api/token/', { name: `t${i}`, remain_quota: 1_000_000 })).body.data as TokenView[])[0].key);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await chat(app, keys[i % 2])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('rejects a negative limit with a clear error', async () => {
    const user = await registerUser(app, 'badlimit');
    const response = await user.post('/api/token/', { name: 'x', rpm_limit: -1 });
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(/RPM/);
  });

  it('writes reset durations as OpenAI does', () => {
    expect(openAiDuration(20)).toBe('20ms');
    expect(openAiDuration(1500)).toBe('1.5s');
    expect(openAiDuration(60_000)).toBe('1m0s');
    expect(openAiDuration(59_999)).toBe('59.999s');
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('RPM and TPM limits on two instances sharing Redis', () => {
  it('passes exactly N requests a minute over both instances', async () => {
    const { pair, seed, userId, stop } = await startRelayPair(redisUrl!, { ModelRatio: JSON.stringify({ 'limit-model': 1 }) }, 'limit-model');
    try {
      const { first, second } = pair;
      const { apiKey } = await seed.createToken(userId, { rpm_limit: 12 });
      const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => chat(index % 2 === 0 ? first : second, apiKey)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(12);
      const refused = answers.find((answer) => answer.status === 429)!;
      expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('12');
      expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    } finally {
      await stop();
    }
  });
});
