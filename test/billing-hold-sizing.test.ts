import { APIError } from 'openai';
import { DataSource } from 'typeorm';
import { registerUser } from './support/accounts';
import type { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import type { TestApp } from './support/test-app';

/** A chat answer reporting the usage the test prices; the prompt matches the hold's estimate of one short message (8). */
function answerUsing(completionTokens: number) {
  return {
    status: 200,
    json: {
      id: 'chatcmpl-hold',
      object: 'chat.completion',
      created: 0,
      model: 'hold-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 8, completion_tokens: completionTokens, total_tokens: 8 + completionTokens },
    },
  };
}

describe('billing: hold sizing', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;

  beforeAll(async () => {
    ({ app, upstream, seed } = await startRelayTestbed());
    await seed.setOption('ModelRatio', JSON.stringify({ 'hold-model': 1 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'hold-model': 2 }));
    await seed.setOption('PreConsumedQuota', 500);
    await seed.createChannel({ base_url: upstream.url, models: 'hold-model' });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  async function fire(apiKey: string, calls: number, maxTokens: number): Promise<{ ok: number; refused: number }> {
    const client = openaiClient(app, apiKey);
    const outcomes = await Promise.all(
      Array.from({ length: calls }, () =>
        client.chat.completions.create({ model: 'hold-model', messages: [{ role: 'user', content: 'x' }], max_tokens: maxTokens }).then(
          () => 'ok',
          (error: APIError) => String(error.code),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome !== 'ok' && !outcome.includes('quota'))).toEqual([]);
    return { ok: outcomes.filter((outcome) => outcome === 'ok').length, refused: outcomes.filter((outcome) => outcome !== 'ok').length };
  }

  async function expectLedgerExact(userId: number, tokenId: number, userStart: number, tokenStart: number, calls: number, cost: number): Promise<void> {
    await seed.flush();
    const logs = await seed.consumeLogs({ userId });
    expect(logs).toHaveLength(calls);
    expect(logs.every((log) => log.quota === cost)).toBe(true);
    expect((await seed.userQuota(userId)).quota).toBe(userStart - calls * cost);
    expect((await seed.tokenQuota(tokenId)).remain_quota).toBe(tokenStart - calls * cost);
    // Every hold was settled or refunded, so its journal row is gone.
    expect(await app.app.get(DataSource).query('SELECT id FROM quota_holds')).toHaveLength(0);
  }

  it('serves at least 40 of 200 concurrent calls on a token funded for exactly 50, and never more than 50', async () => {
    // Each call costs 8 + 7 × 2 = 22; with max_tokens 8 it holds 8 + 8 × 2 = 24 (PreConsumedQuota 500 is not added).
    upstream.handler = () => answerUsing(7);
    const user = await registerUser(app, 'fifty-calls');
    await seed.setUserQuota(user.id, 1_000_000);
    const token = await seed.createToken(user.id, { remain_quota: 50 * 22 });
    const { ok } = await fire(token.apiKey, 200, 8);
    expect(ok).toBeGreaterThanOrEqual(40);
    expect(ok).toBeLessThanOrEqual(50);
    await expectLedgerExact(user.id, token.id, 1_000_000, 50 * 22, ok, 22);
  });

  it('never overdraws when 60 concurrent answers use their stated max_tokens in full on a token funded for 15', async () => {
    // max_tokens 2000 at completion ratio 2: each costs 8 + 4000 = 4008 and holds at least that.
    upstream.handler = () => answerUsing(2000);
    const user = await registerUser(app, 'long-answers');
    await seed.setUserQuota(user.id, 10_000_000);
    const token = await seed.createToken(user.id, { remain_quota: 15 * 4008 });
    const { ok } = await fire(token.apiKey, 60, 2000);
    // The prompt estimate is an upper bound (a token or so above the 8 reported), so the 15th hold may not fit.
    expect(ok).toBeGreaterThanOrEqual(14);
    expect(ok).toBeLessThanOrEqual(15);
    await expectLedgerExact(user.id, token.id, 10_000_000, 15 * 4008, ok, 4008);
    expect((await seed.tokenQuota(token.id)).remain_quota).toBeGreaterThanOrEqual(0);
  });

  it('holds PreConsumedQuota when the request states no limit', async () => {
    upstream.handler = () => answerUsing(7);
    const user = await registerUser(app, 'no-limit');
    await seed.setUserQuota(user.id, 1_000_000);
    // 499 < the 500-token hold: refused although the call itself would cost 22.
    const token = await seed.createToken(user.id, { remain_quota: 499 });
    const error = await openaiClient(app, token.apiKey).chat.completions.create({ model: 'hold-model', messages: [{ role: 'user', content: 'x' }] }).catch((caught: APIError) => caught);
    expect((error as APIError).code).toMatch(/quota/);
  });
});
