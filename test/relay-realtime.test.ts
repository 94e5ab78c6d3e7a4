import { MockSocketUpstream, REALTIME_TRANSCRIPT } from './support/mock-socket-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';
import { SocketClient, socketUrl } from './support/socket-client';

/**
 * OpenAI's Realtime API (/v1/realtime) relayed to OpenAI and Azure channels. Each response the
 * mock gives reports 40 text and 60 audio input tokens, 10 text and 40 audio output tokens. At
 * QuotaPerUnit 500000 a model ratio r costs r quota per token; with model ratio 2.5, completion
 * ratio 4, AudioRatio 8 and AudioCompletionRatio 2:
 *   (40 + 10 × 4 + 60 × 8 + 40 × 8 × 2) × 2.5 = 1200 × 2.5 = 3000.
 */
const REALTIME_MODEL = 'gpt-4o-realtime-preview';
const AZURE_MODEL = 'gpt-4o-realtime-azure';
/** Served by two channels, the first of which refuses upgrades in the breaker test. */
const SHARED_MODEL = 'gpt-4o-realtime-shared';
const RESPONSE_QUOTA = 3000;
const PRICES = {
  ModelRatio: { [REALTIME_MODEL]: 2.5, [AZURE_MODEL]: 2.5, [SHARED_MODEL]: 2.5, 'gpt-chat-only': 1 },
  CompletionRatio: { [REALTIME_MODEL]: 4, [AZURE_MODEL]: 4, 'gpt-chat-only': 1 },
  AudioRatio: { [REALTIME_MODEL]: 8, [AZURE_MODEL]: 8 },
  AudioCompletionRatio: { [REALTIME_MODEL]: 2, [AZURE_MODEL]: 2 },
};

describe('Realtime (/v1/realtime)', () => {
  let bed: NativeRelayTestbed;
  let openaiUpstream: MockSocketUpstream;
  let azureUpstream: MockSocketUpstream;
  let auth: Record<string, string>;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    openaiUpstream = await new MockSocketUpstream().start();
    azureUpstream = await new MockSocketUpstream().start();
    await bed.seed.createChannel({ name: 'openai-realtime', type: 1, base_url: openaiUpstream.url, models: REALTIME_MODEL });
    await bed.seed.createChannel({ name: 'azure-realtime', type: 3, key: 'azure-upstream-key', base_url: azureUpstream.url, models: AZURE_MODEL, model_mapping: JSON.stringify({ [AZURE_MODEL]: 'gpt-4o-realtime.2024' }) });
    // DeepSeek's row offers no realtime.
    await bed.seed.createChannel({ name: 'chat-only', type: 43, base_url: openaiUpstream.url, models: 'gpt-chat-only' });
    auth = { authorization: `Bearer ${bed.token.apiKey}` };
  });

  afterAll(async () => {
    await bed.stop();
    await openaiUpstream.stop();
    await azureUpstream.stop();
  });

  function realtimeUrl(model: string): string {
    return socketUrl(bed.app.baseUrl, `/v1/realtime?model=${encodeURIComponent(model)}`);
  }



  it('relays frames both ways and bills each response from its response.done, text and audio at their ratios', async () => {
    const before = await bed.consumeLogCount();
    const quotaBefore = await bed.seed.tokenQuota(bed.token.id);
    const client = await SocketClient.open(realtimeUrl(REALTIME_MODEL), { headers: { ...auth, 'openai-beta': 'realtime=v1' } });
    await client.until((event) => event.type === 'session.created');
    client.send({ type: 'session.update', session: { modalities: ['text', 'audio'] } });
    client.send({ type: 'response.create', response: { modalities: ['text', 'audio'] } });
    await client.until((event) => event.type === 'response.done');
    const from = client.events.length;
    client.send({ type: 'response.create' });
    await client.until((event) => event.type === 'response.done', from);
    await client.close();

    const upgrade = openaiUpstream.upgrades.at(-1)!;
    expect(upgrade.path).toBe(`/v1/realtime?model=${REALTIME_MODEL}`);
    expect(upgrade.headers['openai-beta']).toBe('realtime=v1');
    expect(openaiUpstream.frames.slice(-3).map((frame) => frame.type)).toEqual(['session.update', 'response.create', 'response.create']);
    expect(client.events.find((event) => event.type === 'response.audio_transcript.delta')).toMatchObject({ delta: REALTIME_TRANSCRIPT });

    const logs = await bed.logsAfter(before, 2);
    expect(logs.map((log) => [log.model_name, log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [REALTIME_MODEL, RESPONSE_QUOTA, 100, 50],
      [REALTIME_MODEL, RESPONSE_QUOTA, 100, 50],
    ]);
    expect(logs[0].other).toMatchObject({ ws: true, audio: true, text_input: 40, text_output: 10, audio_input: 60, audio_output: 40, audio_ratio: 8, audio_completion_ratio: 2, request_path: '/realtime' });
    const quotaAfter = await bed.seed.tokenQuota(bed.token.id);
    expect(quotaBefore.remain_quota - quotaAfter.remain_quota).toBe(2 * RESPONSE_QUOTA);
  });

  it('fails over to another channel when an upgrade is refused with a 5xx, and rests a channel whose breaker opened', async () => {
    const failing = await new MockSocketUpstream().start();
    failing.refuseUpgradesWith = 503;
    try {
      await bed.seed.setOption('ChannelBreakerFailures', 2);
      await bed.seed.setOption('RetryTimes', 1);
      // The same tier and weight: without the breaker, about half the sessions would try the failing channel first.
      await bed.seed.createChannel({ name: 'failing-realtime', type: 1, base_url: failing.url, models: SHARED_MODEL, priority: 5 });
      await bed.seed.createChannel({ name: 'healthy-realtime', type: 1, base_url: openaiUpstream.url, models: SHARED_MODEL, priority: 5 });
      for (let session = 0; session < 12; session++) {
        const client = await SocketClient.open(realtimeUrl(SHARED_MODEL), { headers: auth });
        await client.until((event) => event.type === 'session.created');
        await client.close();
      }
      // Two refusals open the breaker; after that the failing channel rests through its cool-down.
      expect(failing.upgrades).toHaveLength(2);
    } finally {
      await bed.seed.setOption('RetryTimes', 0);
      await failing.stop();
    }
  });

  it('takes the key from the subprotocol browsers use, and never answers it back', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(realtimeUrl(REALTIME_MODEL), { protocols: ['realtime', `openai-insecure-api-key.${bed.token.apiKey}`, 'openai-beta.realtime-v1'] });
    expect(client.ws.protocol).toBe('realtime');
    await client.until((event) => event.type === 'session.created');
    client.send({ type: 'response.create' });
    await client.until((event) => event.type === 'response.done');
    await client.close();
    const [log] = await bed.logsAfter(before, 1);
    expect(log.quota).toBe(RESPONSE_QUOTA);
    // The upstream gets the channel's key, not the client's.
    expect(openaiUpstream.upgrades.at(-1)!.headers['sec-websocket-protocol']).toBeUndefined();
  });

  it('refuses the upgrade without a valid token, for a model the token may not use, and where no channel offers realtime', async () => {
    await expect(SocketClient.open(realtimeUrl(REALTIME_MODEL))).rejects.toMatchObject({ status: 401 });
    await expect(SocketClient.open(realtimeUrl(REALTIME_MODEL), { protocols: ['realtime', 'openai-insecure-api-key.sk-wrong'] })).rejects.toMatchObject({ status: 401 });
    const limited = await bed.seed.createToken(bed.alice.id, { model_limits_enabled: true, model_limits: 'gpt-chat-only' });
    await expect(SocketClient.open(realtimeUrl(REALTIME_MODEL), { headers: { authorization: `Bearer ${limited.apiKey}` } })).rejects.toMatchObject({ status: 403 });
    await expect(SocketClient.open(realtimeUrl('gpt-chat-only'), { headers: auth })).rejects.toMatchObject({ status: 400 });
    await expect(SocketClient.open(socketUrl(bed.app.baseUrl, '/v1/realtime'), { headers: auth })).rejects.toMatchObject({ status: 400 });
  });

  it('relays to Azure: its realtime path, api-version, deployment and api-key', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(realtimeUrl(AZURE_MODEL), { headers: auth });
    await client.until((event) => event.type === 'session.created');
    client.send({ type: 'response.create' });
    await client.until((event) => event.type === 'response.done');
    await client.close();

    const upgrade = azureUpstream.upgrades.at(-1)!;
    const url = new URL(upgrade.path, 'http://azure');
    expect(url.pathname).toBe('/openai/realtime');
    expect(url.searchParams.get('api-version')).toBe('2025-04-01-preview');
    // Azure deployments carry no dots.
    expect(url.searchParams.get('deployment')).toBe('gpt-4o-realtime2024');
    expect(upgrade.headers.authorization).toBeUndefined();
    const [log] = await bed.logsAfter(before, 1);
    expect(log.quota).toBe(RESPONSE_QUOTA);
    expect(log.other).toMatchObject({ ws: true, audio: true, is_model_mapped: true, upstream_model_name: 'gpt-4o-realtime.2024' });
  });

  it('bills what was delivered when the client leaves mid-response', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(realtimeUrl(REALTIME_MODEL), { headers: auth });
    client.send({ type: 'response.create', response: { instructions: 'HANG' } });
    await client.until((event) => event.type === 'response.audio_transcript.delta');
    await client.close();

    const [log] = await bed.logsAfter(before, 1);
    // No usage came: the delivered transcript is counted, at the text completion price.
    expect(log.prompt_tokens).toBe(0);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Math.round(Number(log.completion_tokens) * 4 * 2.5));
    expect(log.other).toMatchObject({ ws: true, client_disconnected: true });
  });

  it('bills what was delivered when the upstream drops mid-response, and closes the client', async () => {
    const before = await bed.consumeLogCount();
    const client = await SocketClient.open(realtimeUrl(REALTIME_MODEL), { headers: auth });
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    client.send({ type: 'response.create', response: { instructions: 'DROP' } });
    expect(await closed).toBe(1011);
    expect(client.events.some((event) => event.type === 'response.audio_transcript.delta')).toBe(true);

    const [log] = await bed.logsAfter(before, 1);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Math.round(Number(log.completion_tokens) * 4 * 2.5));
    expect(log.other).not.toHaveProperty('client_disconnected');
  });
});
