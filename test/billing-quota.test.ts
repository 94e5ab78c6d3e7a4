import OpenAI, { APIError } from 'openai';
import { registerUser, type Session } from './support/accounts';
import { chatStreamEvents, MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import type { TestApp } from './support/test-app';
import { QuotaLedgerService } from '../src/modules/billing/quota-ledger.service';

/** Mock usage (12 prompt, 7 completion) at ratio 2 and completion ratio 3: (12 + 21) × 2 = 66 quota per request. */
const COST = 66;

describe('billing: holds, refunds and the quota invariant', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;

  beforeAll(async () => {
    ({ app, upstream, seed } = await startRelayTestbed());
    await seed.setOption('ModelRatio', JSON.stringify({ 'bill-model': 2 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'bill-model': 3 }));
    await seed.setOption('PreConsumedQuota', 0);
    await seed.setOption('RetryTimes', 1);
    await seed.createChannel({ base_url: upstream.url, models: 'bill-model', priority: 1 });
    await seed.createChannel({ base_url: upstream.url, models: 'bill-model', priority: 0 });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });
  beforeEach(() => upstream.reset());

  async function expectLedgerBalanced(user: Session, tokenId: number, userStart: number, tokenStart: number): Promise<number> {
    await seed.flush();
    const logs = await seed.consumeLogs({ userId: user.id });
    const logged = logs.reduce((sum, log) => sum + log.quota, 0);
    expect(userStart - (await seed.userQuota(user.id)).quota).toBe(logged);
    const tokenLogged = logs.filter((log) => Number(log.token_id) === tokenId).reduce((sum, log) => sum + log.quota, 0);
    const token = await seed.tokenQuota(tokenId);
    expect(tokenStart - token.remain_quota).toBe(tokenLogged);
    expect(token.used_quota).toBe(tokenLogged);
    return logs.length;
  }

  it('gives back the whole hold when every channel fails, and logs nothing', async () => {
    const user = await registerUser(app, 'refund-user');
    await seed.setUserQuota(user.id, 100_000);
    const token = await seed.createToken(user.id, { remain_quota: 50_000 });
    upstream.handler = () => ({ status: 500, json: { error: { message: 'down' } } });
    const error = await openaiClient(app, token.apiKey).chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'x' }], max_tokens: 100 }).catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(500);
    expect(upstream.requests).toHaveLength(2);
    await seed.flush();
    expect((await seed.userQuota(user.id)).quota).toBe(100_000);
    expect((await seed.tokenQuota(token.id)).remain_quota).toBe(50_000);
    expect(await seed.consumeLogs({ userId: user.id })).toHaveLength(0);
  });

  it('refuses with insufficient_quota once the user runs dry mid-way, taking nothing', async () => {
    const user = await registerUser(app, 'dry-user');
    await seed.setUserQuota(user.id, COST * 3 + 10);
    const token = await seed.createToken(user.id, { unlimited_quota: true });
    const client = openaiClient(app, token.apiKey);
    const results: Array<number | string> = [];
    for (let i = 0; i < 5; i++) {
      // The hold is the prompt estimate (≈ 8 tokens) plus max_tokens 7 at completion ratio 3, × 2: about 58.
      const outcome = await client.chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'x' }], max_tokens: 7 }).then(
        () => 200,
        (error:  APIError) => String(error.code),
      );
      results.push(outcome);
      await seed.flush();
    }
    expect(results).toEqual([200, 200, 200, 'insufficient_quota', 'insufficient_quota']);
    expect((await seed.userQuota(user.id)).quota).toBe(10);
  });

  it('takes from token and user together or not at all: a poor user leaves the token untouched', async () => {
    const user = await registerUser(app, 'poor-user');
    await seed.setUserQuota(user.id, 5);
    const token = await seed.createToken(user.id, { remain_quota: 1_000_000 });
    const error = await openaiClient(app, token.apiKey)
      .chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'x' }], max_tokens: 25 })
      .catch((caught: unknown) => caught);
    expect((error as APIError).code).toBe('insufficient_quota');
    expect(upstream.requests).toHaveLength(0);
    await seed.flush();
    expect((await seed.tokenQuota(token.id)).remain_quota).toBe(1_000_000);
    expect((await seed.userQuota(user.id)).quota).toBe(5);
  });

  it("concurrent requests: a poor user's fail on their own while a rich user's all go through", async () => {
    const rich = await registerUser(app, 'rich-user');
    const poor = await registerUser(app, 'poorer-user');
    await seed.setUserQuota(rich.id, 1_000_000);
    // One hold (≈ 58: the prompt estimate plus max_tokens 7 at completion ratio 3, × 2) fits in 70, two do not.
    await seed.setUserQuota(poor.id, 70);
    const richToken = await seed.createToken(rich.id, { remain_quota: 1_000_000 });
    const poorToken = await seed.createToken(poor.id, { remain_quota: 1_000_000 });
    const ask = (apiKey: string) =>
      openaiClient(app, apiKey)
        .chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'x' }], max_tokens: 7 })
        .then(
          () => 'ok',
          (error: APIError) => String(error.code),
        );
    const outcomes = await Promise.all([...Array.from({ length: 20 }, () => ask(richToken.apiKey)), ...Array.from({ length: 4 }, () => ask(poorToken.apiKey))]);
    expect(outcomes.slice(0, 20)).toEqual(Array(20).fill('ok'));
    expect(outcomes.slice(20).sort()).toEqual(['insufficient_quota', 'insufficient_quota', 'insufficient_quota', 'ok']);
    expect(await expectLedgerBalanced(rich, richToken.id, 1_000_000, 1_000_000)).toBe(20);
    expect(await expectLedgerBalanced(poor, poorToken.id, 70, 1_000_000)).toBe(1);
  });

  it('takes the holds asked for in one turn together, and one by one when their sum does not fit', async () => {
    const ledger = app.app.get(QuotaLedgerService);
    const rich = await registerUser(app, 'batch-rich');
    const poor = await registerUser(app, 'batch-poor');
    await seed.setUserQuota(rich.id, 1000);
    await seed.setUserQuota(poor.id, 100);
    const richToken = await seed.createToken(rich.id, { remain_quota: 1000 });
    const poorToken = await seed.createToken(poor.id, { remain_quota: 1000 });
    const hold = (token: { id: number }, user: Session, amount: number) => ledger.preConsumeQuota(token.id, true, user.id, amount);

    // Asked for in the same turn: the poor user's sum (180) does not fit in 100, so each is decided alone.
    const outcomes = await Promise.allSettled([hold(richToken, rich, 100), hold(poorToken, poor, 60), hold(richToken, rich, 100), hold(poorToken, poor, 60), hold(poorToken, poor, 60)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ holder: 'user' });
    expect(outcomes[1]).toMatchObject({ value: { fromToken: 60, fromUser: 60 } });
    expect((await seed.userQuota(rich.id)).quota).toBe(800);
    expect((await seed.tokenQuota(richToken.id)).remain_quota).toBe(800);
    expect((await seed.userQuota(poor.id)).quota).toBe(40);
    expect((await seed.tokenQuota(poorToken.id)).remain_quota).toBe(940);

    // All of them fit: taken as one sum per row, every hold granted in full.
    const granted = await Promise.all([hold(richToken, rich, 300), hold(richToken, rich, 300), hold(poorToken, poor, 40)]);
    expect(granted.map((taken) => taken.fromUser)).toEqual([300, 300, 40]);
    expect((await seed.userQuota(rich.id)).quota).toBe(200);
    expect((await seed.tokenQuota(richToken.id)).remain_quota).toBe(200);
    expect((await seed.userQuota(poor.id)).quota).toBe(0);
    expect((await seed.tokenQuota(poorToken.id)).remain_quota).toBe(900);
  });

  it('aborts the upstream when the client disconnects mid-stream and bills what was delivered', async () => {
    const user = await registerUser(app, 'leaver');
    await seed.setUserQuota(user.id, 1_000_000);
    const token = await seed.createToken(user.id, { remain_quota: 1_000_000 });
    const words = Array.from({ length: 200 }, (_, i) => `word${i} `).join('');
    upstream.handler = (request) => ({ sse: chatStreamEvents(String(request.body.model), words, { prompt_tokens: 10, completion_tokens: 999, total_tokens: 1009 }), delayMs: 10 });
    const stream = await openaiClient(app, token.apiKey).chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'long' }], stream: true });
    let received = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) received++;
      if (received === 5) break;
    }
    await waitFor(() => upstream.streamsAborted === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await seed.flush();
    const [log] = await seed.consumeLogs({ userId: user.id });
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(200);
    expect(log.quota).toBeGreaterThan(0);
    await expectLedgerBalanced(user, token.id, 1_000_000, 1_000_000);
  });

  it('keeps user and token ledgers equal to the sum of consume logs after 200 concurrent requests against a token funded for 50', async () => {
    const user = await registerUser(app, 'crowd');
    await seed.setUserQuota(user.id, 10_000_000);
    // Each hold is (≈ 8 prompt + 25 max_tokens) × 2 ≥ 66; fund the token for 50 holds.
    const tokenStart = 50 * 76;
    const token = await seed.createToken(user.id, { remain_quota: tokenStart });
    let calls = 0;
    upstream.handler = (request) => {
      calls++;
      if (calls % 7 === 0) return { status: 502, json: { error: { message: 'flaky' } } };
      if (calls % 11 === 0) return { status: 400, json: { error: { message: 'bad request' } } };
      if (request.body.stream === true) return { sse: chatStreamEvents(String(request.body.model), 'streamed answer', { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 }) };
      return undefined;
    };
    const client = openaiClient(app, token.apiKey);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const body = { model: 'bill-model', messages: [{ role: 'user' as const, content: 'x' }], max_tokens: 25 };
        try {
          if (i % 3 === 0) {
            const stream = await client.chat.completions.create({ ...body, stream: true });
            for await (const chunk of stream) void chunk;
          } else {
            await client.chat.completions.create(body);
          }
          return 'ok';
        } catch (error) {
          return String((error as APIError).code ?? (error as Error).message);
        }
      }),
    );
    const ok = outcomes.filter((outcome) => outcome === 'ok').length;
    expect(ok).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome === 'insufficient_quota').length).toBeGreaterThan(0);
    const logCount = await expectLedgerBalanced(user, token.id, 10_000_000, tokenStart);
    expect(logCount).toBe(ok);
    expect((await seed.tokenQuota(token.id)).remain_quota).toBeGreaterThanOrEqual(0);
    expect(ok * COST).toBeLessThanOrEqual(tokenStart);
    expect((await seed.userQuota(user.id)).request_count).toBe(ok);
  });

  it("bills each user's token to that user only", async () => {
    const carol = await registerUser(app, 'carol');
    const dave = await registerUser(app, 'dave');
    await seed.setUserQuota(carol.id, 1_000_000);
    await seed.setUserQuota(dave.id, 1_000_000);
    const carolToken = await seed.createToken(carol.id);
    await openaiClient(app, carolToken.apiKey).chat.completions.create({ model: 'bill-model', messages: [{ role: 'user', content: 'x' }] });
    await seed.flush();
    expect(await seed.consumeLogs({ userId: dave.id })).toHaveLength(0);
    expect((await seed.userQuota(dave.id)).quota).toBe(1_000_000);
    const [log] = await seed.consumeLogs({ userId: carol.id });
    expect(log).toMatchObject({ token_id: carolToken.id, username: 'carol' });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
