import { registerUser, setupRoot } from './accounts';
import { MockUpstream } from './mock-upstream';
import { RelaySeed } from './mock-upstream-seed';
import { startInstancesOnRedis, type InstancePair } from './redis-instances';
import type { TestApp } from './test-app';

/** A relay answer as a client sees it: status, headers and the error, if any. */
export interface RelayAnswer {
  status: number;
  headers: Headers;
  error?: { code?: string; message?: string };
}

/** One chat completion through the gateway with plain fetch, so the answer's headers can be read. */
export async function relayChat(app: TestApp, apiKey: string, body: object): Promise<RelayAnswer> {
  const response = await fetch(`${app.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
  const json = (await response.json()) as { error?: RelayAnswer['error'] };
  return { status: response.status, headers: response.headers, error: json.error };
}

/**
 * Two instances on one database and one Redis, set up (root, `options` on both, a channel of
 * `models` to a mock upstream), and a user with a balance: the cross-instance tests' start.
 */
export async function startRelayPair(redisUrl: string, options: Record<string, string>, models: string): Promise<{ pair: InstancePair; upstream: MockUpstream; seed: RelaySeed; userId: number; stop(): Promise<void> }> {
  const upstream = await new MockUpstream().start();
  const pair = await startInstancesOnRedis(redisUrl);
  const seed = new RelaySeed(pair.first);
  await setupRoot(pair.first);
  for (const app of [pair.first, pair.second]) for (const [key, value] of Object.entries(options)) await new RelaySeed(app).setOption(key, value);
  await seed.createChannel({ base_url: upstream.url, models });
  // The channel cache of the second instance reloads on the invalidation from the first.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const user = await registerUser(pair.first, 'pairuser');
  await seed.setUserQuota(user.id, 10_000_000);
  return {
    pair,
    upstream,
    seed,
    userId: user.id,
    async stop() {
      await pair.stop();
      await upstream.stop();
    },
  };
}
