import OpenAI from 'openai';
import type { MockHandler } from './mock-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './native-relay';

/** One consume log row, as RelaySeed reads it. */
type LogRow = Awaited<ReturnType<NativeRelayTestbed['seed']['consumeLogs']>>[number];

/** A native provider's end-to-end testbed: the shared one, with the helpers its tests share. */
export interface ProviderRelay extends NativeRelayTestbed {
  /** The token's last consume log row, once pending settlements are written. */
  lastLog(): Promise<LogRow>;
  /**
   * A channel of `type` with a key the provider refuses (or an account it reports exhausted),
   * serving `model` alone: the client's request through it fails, the channel ends
   * auto-disabled, and neither the client's error nor any log row shows the key.
   */
  expectAutoDisabled(channel: { type: number; key: string; model: string; base_url?: string }, request: (model: string) => Promise<unknown>): Promise<void>;
}

/**
 * Registers the hooks of a provider's e2e suite: the testbed with `prices` before all, its
 * mock answering with `handler()` (and its records cleared) before each test, the stop after
 * all. The returned object is filled in once the suite starts.
 */
export function useProviderRelay(prices: Record<string, Record<string, number>>, handler: () => MockHandler): ProviderRelay {
  const relay = {} as ProviderRelay;
  beforeAll(async () => {
    Object.assign(relay, await startNativeRelayTestbed(prices), {
      async lastLog() {
        await relay.seed.flush();
        return (await relay.seed.consumeLogs({ tokenId: relay.token.id })).slice(-1)[0];
      },
      async expectAutoDisabled(channel: { type: number; key: string; model: string; base_url?: string }, request: (model: string) => Promise<unknown>) {
        await relay.seed.setOption('AutomaticDisableChannelEnabled', true);
        const id = await relay.seed.createChannel({ name: channel.model, type: channel.type, base_url: channel.base_url ?? relay.native.url, models: channel.model, key: channel.key });
        const refused = await request(channel.model).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(OpenAI.APIError);
        expect(JSON.stringify((refused as InstanceType<typeof OpenAI.APIError>).error)).not.toContain(channel.key);
        expect(await relay.seed.channelStatusEventually(id, 3)).toBe(3);
        expect(JSON.stringify(await relay.seed.consumeLogs({ tokenId: relay.token.id }))).not.toContain(channel.key);
        await relay.seed.setOption('AutomaticDisableChannelEnabled', false);
      },
    });
  });
  afterAll(() => relay.stop());
  beforeEach(async () => {
    relay.native.reset();
    relay.native.handler = handler();
    await relay.seed.flush();
  });
  return relay;
}
