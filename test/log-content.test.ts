import { registerUser, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed, startRelayTestbed } from './support/mock-upstream-seed';
import { TestApp } from './support/test-app';

/**
 * The text of a consumption log row is written in the source language, like the top-up, admin
 * and system rows beside it in the usage log (found by a first-hour walk: English charge rows
 * between Chinese top-up rows).
 */
describe('usage log: the text of a consumption row', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let alice: Session;

  beforeAll(async () => {
    ({ app, upstream, seed } = await startRelayTestbed());
    alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'test-model': 2 }));
    await seed.setOption('CompletionRatio', JSON.stringify({ 'test-model': 3 }));
    await seed.setOption('ModelPrice', JSON.stringify({ 'fixed-model': 0.01 }));
    await seed.setUserQuota(alice.id, 10_000_000);
    await seed.createChannel({ name: 'primary', base_url: upstream.url, models: 'test-model,fixed-model', key: 'sk-upstream-secret-1' });
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('names the ratios of a per-token charge and the price of a per-call one, in Chinese', async () => {
    const token = await seed.createToken(alice.id, { remain_quota: 5_000_000 });
    const client = openaiClient(app, token.apiKey);
    await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }] });
    await client.chat.completions.create({ model: 'fixed-model', messages: [{ role: 'user', content: 'Say hello' }] });
    await seed.flush();

    const response = await alice.get('/api/log/self/?type=2');
    expect(response.status).toBe(200);
    const contents = (response.body.data.items as { model_name: string; content: string }[]).map((row) => [row.model_name, row.content]);
    expect(contents).toEqual(
      expect.arrayContaining([
        ['test-model', '模型倍率 2，补全倍率 3，分组倍率 1'],
        ['fixed-model', '模型价格 0.01，分组倍率 1'],
      ]),
    );
  });
});
