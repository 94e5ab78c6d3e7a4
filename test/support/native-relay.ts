import type OpenAI from 'openai';
import { registerUser, setupRoot, type Session } from './accounts';
import { MockUpstream } from './mock-upstream';
import { openaiClient, RelaySeed } from './mock-upstream-seed';
import { startTestApp, type TestApp } from './test-app';
import { eventually } from './until';

/** What the native-provider relay tests share: the app, a native mock, an OpenAI mock, and alice's token. */
export interface NativeRelayTestbed {
  app: TestApp;
  native: MockUpstream;
  openaiUpstream: MockUpstream;
  seed: RelaySeed;
  root: Session;
  alice: Session;
  token: { id: number; key: string; apiKey: string };
  openai: OpenAI;
  /** The newest consume log of alice's token, once every settlement is written. */
  lastLog(): Promise<Awaited<ReturnType<RelaySeed['consumeLogs']>>[number]>;
  /** How many consume logs alice's token has, once every settlement is written. */
  consumeLogCount(): Promise<number>;
  /** Alice's token's consume logs after the first `count`, once there are `expected` of them (settlements come off the request path). */
  logsAfter(count: number, expected: number): Promise<Awaited<ReturnType<RelaySeed['consumeLogs']>>>;
  stop(): Promise<void>;
}

/** Boots the app with prices set, alice holding a limited token, and an OpenAI channel serving gpt-test. */
export async function startNativeRelayTestbed(prices: Record<string, Record<string, number>>): Promise<NativeRelayTestbed> {
  const native = await new MockUpstream().start();
  const openaiUpstream = await new MockUpstream().start();
  const app = await startTestApp();
  const seed = new RelaySeed(app);
  const root = await setupRoot(app);
  const alice = await registerUser(app, 'alice');
  for (const [key, value] of Object.entries(prices)) await seed.setOption(key, JSON.stringify(value));
  await seed.setUserQuota(alice.id, 10_000_000);
  const token = await seed.createToken(alice.id, { remain_quota: 5_000_000 });
  await seed.createChannel({ name: 'openai', base_url: openaiUpstream.url, models: 'gpt-test' });
  const stop = async () => {
    await app.stop();
    await native.stop();
    await openaiUpstream.stop();
  };
  const lastLog = async () => {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  };
  const consumeLogCount = async () => {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).length;
  };
  const logsAfter = async (count: number, expected: number) => {
    let logs = await seed.consumeLogs({ tokenId: token.id });
    await eventually(async () => {
      await seed.flush();
      logs = await seed.consumeLogs({ tokenId: token.id });
      return logs.length >= count + expected;
    });
    return logs.slice(count);
  };
  return { app, native, openaiUpstream, seed, root, alice, token, openai: openaiClient(app, token.apiKey), lastLog, consumeLogCount, logsAfter, stop };
}

/** Price options where every model costs 1 quota per prompt token and `completionRatio` per completion token (at QuotaPerUnit 500000). */
export function unitPrices(models: readonly string[], completionRatio: number): Record<string, Record<string, number>> {
  return {
    ModelRatio: Object.fromEntries(models.map((model) => [model, 1])),
    CompletionRatio: Object.fromEntries(models.map((model) => [model, completionRatio])),
  };
}
