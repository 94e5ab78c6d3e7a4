import type OpenAI from 'openai';
import type { Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { MockReplicate, REPLICATE_METRICS, REPLICATE_REPLY_TEXT, REPLICATE_TOKENS } from './support/mock-replicate';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';

const KEY = 'r8_upstream-secret-key-0123456789';
const LLAMA = 'meta/meta-llama-3-8b-instruct';
const FLUX = 'black-forest-labs/flux-schnell';
/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token: a finished prediction reports 20
 * input and 9 output tokens, billed 20 + 9 × 2 = 38. An image costs its ModelPrice, $0.003 a
 * request: 1500 quota.
 */
const CHAT_QUOTA = REPLICATE_METRICS.input_token_count + REPLICATE_METRICS.output_token_count * 2;
const IMAGE_QUOTA = 1500;
const PRICES = {
  ModelRatio: { llama: 1, 'llama-pinned': 1, [LLAMA]: 1, 'slow/llm': 1, 'broken/llm': 1, 'poor/llm': 1, 'bad-key-model': 1, 'gpt-test': 1 },
  CompletionRatio: { llama: 2, [LLAMA]: 2, 'slow/llm': 2 },
  ModelPrice: { [FLUX]: 0.003 },
};

describe('relay: Replicate channels (type 56)', () => {
  let replicate: MockUpstream;
  let mock: MockReplicate;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let stop: () => Promise<void>;
  let elsewhere: MockUpstream;

  beforeAll(async () => {
    ({ native: replicate, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    elsewhere = await new MockUpstream().start();
    await seed.createChannel({
      name: 'replicate',
      type: CHANNEL_TYPE.REPLICATE,
      base_url: replicate.url,
      key: KEY,
      models: `llama,${LLAMA},${FLUX},slow/llm,broken/llm`,
      model_mapping: JSON.stringify({ llama: LLAMA }),
    });
  });
  afterAll(async () => {
    await stop();
    await elsewhere.stop();
  });
  beforeEach(async () => {
    replicate.reset();
    elsewhere.reset();
    mock = new MockReplicate(replicate.url, KEY);
    replicate.handler = mock.handler;
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('answers a chat from a waited-for prediction of the mapped model, billed from its metrics', async () => {
    const answer = await openai.chat.completions.create({
      model: 'llama',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello.' },
      ],
      max_tokens: 64,
      temperature: 0.5,
      stop: ['\n\n'],
    });
    expect(answer.choices[0].message.content).toBe(REPLICATE_REPLY_TEXT);
    expect(answer.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 9 });

    const sent = replicate.requests[0];
    expect(sent.path).toBe(`/v1/models/${LLAMA}/predictions`);
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers.prefer).toBe('wait');
    expect(sent.body).toEqual({ input: { prompt: 'Say hello.', system_prompt: 'Be brief.', max_tokens: 64, max_new_tokens: 64, temperature: 0.5, stop_sequences: '\n\n' } });

    const log = await lastLog();
    expect(log).toMatchObject({ model_name: 'llama', quota: CHAT_QUOTA, prompt_tokens: 20, completion_tokens: 9 });
    expect(JSON.stringify(log)).not.toContain(KEY);
  });

  it('sends a conversation as a transcript, and runs a version through /v1/predictions', async () => {
    const version = `${LLAMA}:${'a'.repeat(64)}`;
    const id = await seed.createChannel({ name: 'replicate-version', type: CHANNEL_TYPE.REPLICATE, base_url: replicate.url, key: KEY, models: 'llama-pinned', model_mapping: JSON.stringify({ 'llama-pinned': version }), priority: 5 });
    await openai.chat.completions.create({
      model: 'llama-pinned',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
      ],
    });
    expect(replicate.requests[0].path).toBe('/v1/predictions');
    expect(replicate.requests[0].body).toEqual({ version, input: { prompt: 'User: Hi\n\nAssistant: Hello!\n\nUser: How are you?\n\nAssistant:' } });
    await root.delete(`/api/channel/${id}`).expect(200);
  });

  it('streams through the prediction’s stream URL (a second request), billed from the finished prediction’s metrics', async () => {
    const stream = await openai.chat.completions.create({ model: LLAMA, messages: [{ role: 'user', content: 'Say hello.' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(REPLICATE_REPLY_TEXT);
    expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 9 });
    const [created, followed, read] = replicate.requests;
    expect(created.body).toMatchObject({ stream: true, input: { prompt: 'Say hello.' } });
    expect(created.headers.prefer).toBeUndefined();
    expect(followed).toMatchObject({ method: 'GET', path: '/v1/streams/pred1' });
    expect(followed.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(read).toMatchObject({ method: 'GET', path: '/v1/predictions/pred1' });
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 20, completion_tokens: 9 });
  });

  it('never calls a stream URL on another host: the prediction is polled on the channel’s host instead, billed from its metrics', async () => {
    mock.streamBase = elsewhere.url;
    const stream = await openai.chat.completions.create({ model: LLAMA, messages: [{ role: 'user', content: 'Say hello.' }], stream: true });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta.content ?? '');
    expect(chunks.join('')).toBe(REPLICATE_REPLY_TEXT);
    expect(elsewhere.requests).toHaveLength(0);
    expect(replicate.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`POST /v1/models/${LLAMA}/predictions`, 'GET /v1/predictions/pred1']);
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 20, completion_tokens: 9 });
  });

  it('polls a prediction still processing when Replicate stops waiting', async () => {
    const answer = await openai.chat.completions.create({ model: 'slow/llm', messages: [{ role: 'user', content: 'Take your time.' }] });
    expect(answer.choices[0].message.content).toBe(REPLICATE_REPLY_TEXT);
    expect(replicate.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/models/slow/llm/predictions', 'GET /v1/predictions/pred1']);
    expect(await lastLog()).toMatchObject({ model_name: 'slow/llm', quota: CHAT_QUOTA });
  });

  it('generates images from an image model’s prediction, billed per request', async () => {
    const result = await openai.images.generate({ model: FLUX, prompt: 'a cat in a hat', n: 2, size: '1792x1024' });
    expect(result.data?.map((image) => image.url)).toEqual([`${replicate.url}/files/pred1-0.webp`, `${replicate.url}/files/pred1-1.webp`]);
    expect(replicate.requests[0].path).toBe(`/v1/models/${FLUX}/predictions`);
    expect(replicate.requests[0].headers.prefer).toBe('wait');
    expect(replicate.requests[0].body).toEqual({ input: { prompt: 'a cat in a hat', num_outputs: 2, aspect_ratio: '16:9' } });
    expect(await lastLog()).toMatchObject({ model_name: FLUX, quota: IMAGE_QUOTA });
  });

  it('answers a failed prediction as the channel’s fault (502), and a refused input as the request’s (its 422)', async () => {
    const failed = await openai.chat.completions.create({ model: 'broken/llm', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 502 });
    const refused = await openai.chat.completions.create({ model: LLAMA, messages: [{ role: 'system', content: 'only a system prompt' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 422 });
  });

  it('tests the channel through its own transport', async () => {
    const id = await seed.createChannel({ name: 'replicate-probe', type: CHANNEL_TYPE.REPLICATE, base_url: replicate.url, key: KEY, models: LLAMA, test_model: LLAMA, priority: -5 });
    expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
    expect(replicate.requests[0]).toMatchObject({ path: `/v1/models/${LLAMA}/predictions` });
    await root.delete(`/api/channel/${id}`).expect(200);
  });

  it('disables a channel whose key Replicate refuses (401) or whose account has no credit (402), and shows no key', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const broken = await seed.createChannel({ name: 'replicate-bad-key', type: CHANNEL_TYPE.REPLICATE, base_url: replicate.url, key: 'r8_wrong-key-0123456789', models: 'bad-key-model', model_mapping: JSON.stringify({ 'bad-key-model': LLAMA }) });
    const refused = await openai.chat.completions.create({ model: 'bad-key-model', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
    expect(JSON.stringify(refused)).not.toContain('r8_wrong-key');
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);

    const poor = await seed.createChannel({ name: 'replicate-poor', type: CHANNEL_TYPE.REPLICATE, base_url: replicate.url, key: KEY, models: 'poor/llm' });
    const unpaid = await openai.chat.completions.create({ model: 'poor/llm', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(unpaid).toMatchObject({ status: 502 });
    expect(await seed.channelStatusEventually(poor, 3)).toBe(3);
    await seed.setOption('AutomaticDisableChannelEnabled', false);
  });

  it('keeps the mock honest: the stream endpoint answers Replicate’s own framing', async () => {
    // The gateway's decoder reads what Replicate sends: output events carrying leading spaces, then done.
    const prediction = await fetch(`${replicate.url}/v1/models/${LLAMA}/predictions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ input: { prompt: 'hi' }, stream: true }) });
    const { urls } = (await prediction.json()) as { urls: { stream: string } };
    const text = await (await fetch(urls.stream, { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } })).text();
    expect(text).toContain(`event: output\nid: pred1:5\ndata: ${REPLICATE_TOKENS[1]}\n\n`);
    expect(text.endsWith('event: done\ndata: {}\n\n')).toBe(true);
  });
});
