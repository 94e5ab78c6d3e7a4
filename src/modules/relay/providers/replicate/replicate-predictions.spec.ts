import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import { streamUrlOnChannelSite } from './replicate.adaptor';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import { UsageMeter } from '../../wire/usage';
import {
  openAIChatFromPrediction,
  openAIImagesFromPrediction,
  predictionAsStream,
  predictionFromOpenAIChat,
  predictionFromOpenAIImage,
  predictionTarget,
  readPrediction,
  ReplicateStreamDecoder,
} from './replicate-predictions';

/** Golden fixtures of every Replicate ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, 'fixtures', name));
const json = (name: string): JsonObject => JSON.parse(fixture(name).toString('utf8')) as JsonObject;
const LLAMA = 'meta/meta-llama-3-8b-instruct';
const official = { path: `/v1/models/meta/meta-llama-3-8b-instruct/predictions` };

/** Decodes a stream fed in pieces of `size` bytes, with the chunks' `created` zeroed (it is the clock's). */
function decode(bytes: Buffer, size: number, usage = new UsageMeter()): JsonObject[] {
  const decoder = new ReplicateStreamDecoder(LLAMA, usage);
  const chunks: JsonObject[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(...decoder.push(bytes.subarray(start, start + size)));
  chunks.push(...decoder.end());
  return chunks.map((chunk) => ('created' in chunk ? { ...chunk, created: 0 } : chunk));
}

describe('the model a prediction runs', () => {
  it('runs an official model by name and a version through /v1/predictions', () => {
    expect(predictionTarget(LLAMA)).toEqual(official);
    expect(predictionTarget('black-forest-labs/flux-schnell')).toEqual({ path: '/v1/models/black-forest-labs/flux-schnell/predictions' });
    const id = 'a'.repeat(64);
    expect(predictionTarget(`${LLAMA}:${id}`)).toEqual({ path: '/v1/predictions', version: `${LLAMA}:${id}` });
    expect(predictionTarget(id)).toEqual({ path: '/v1/predictions', version: id });
  });

  it('refuses names that are not owner/name (the channel then does not offer the model)', () => {
    expect(predictionTarget('gpt-4o')).toBeUndefined();
    expect(predictionTarget('a/b/c')).toBeUndefined();
    expect(predictionTarget('/name')).toBeUndefined();
  });
});

describe('OpenAI → a prediction (channel side)', () => {
  it('turns a conversation into a transcript prompt with the system prompt beside it, sampling and stops as inputs', () => {
    expect(predictionFromOpenAIChat(json('openai-chat.request.json'), official, true)).toEqual(json('prediction.request.json'));
  });

  it('sends one user message as the prompt itself, and a version in the body', () => {
    const version = { path: '/v1/predictions', version: 'abc' };
    expect(predictionFromOpenAIChat({ model: 'x', messages: [{ role: 'user', content: 'Hi there' }], max_completion_tokens: 5 }, version, false)).toEqual({
      version: 'abc',
      input: { prompt: 'Hi there', max_tokens: 5, max_new_tokens: 5 },
    });
  });

  it('sends an image generation as the image model’s prompt, count and aspect ratio', () => {
    expect(predictionFromOpenAIImage({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dusk', n: 2, size: '1792x1024', response_format: 'url' }, official)).toEqual({
      input: { prompt: 'a lighthouse at dusk', num_outputs: 2, aspect_ratio: '16:9' },
    });
    expect(predictionFromOpenAIImage({ prompt: 'square', size: '333x777' }, official)).toEqual({ input: { prompt: 'square' } });
  });
});

describe('a prediction → OpenAI (client side)', () => {
  it('answers a language model’s prediction as a chat completion, usage from its metrics', () => {
    const prediction = json('prediction.response.json');
    expect(openAIChatFromPrediction(prediction, LLAMA)).toEqual(json('openai.response.json'));
    expect(readPrediction(prediction)).toEqual({ usage: { promptTokens: 31, completionTokens: 6 }, text: 'Waves roll, then rest.' });
  });

  it('has no usage when the model reports no token counts (the relay then counts)', () => {
    expect(readPrediction({ status: 'succeeded', output: 'whole text', metrics: { predict_time: 1 } })).toEqual({ usage: undefined, text: 'whole text' });
    expect(openAIChatFromPrediction({ output: 'whole text' }, LLAMA)).not.toHaveProperty('usage');
  });

  it('answers an image model’s output URLs as OpenAI’s image list', () => {
    expect(openAIImagesFromPrediction(json('image-prediction.response.json'))).toEqual(json('openai-images.response.json'));
    expect(openAIImagesFromPrediction({ created_at: '2024-05-01T12:00:00.000Z', output: 'https://replicate.delivery/one.png' })).toEqual({ created: 1714564800, data: [{ url: 'https://replicate.delivery/one.png' }] });
  });
});

describe("Replicate's output stream → OpenAI chunks", () => {
  it('turns output events into deltas (leading spaces, CRLF and multi-line data kept) and done into the finish, at any chunk boundary', () => {
    const expected = json('openai.stream-chunks.json') as unknown as JsonObject[];
    for (const size of [1, 7, 50, 10_000]) expect(decode(fixture('output.stream.sse'), size)).toEqual(expected);
  });

  it('takes usage only from a done event carrying metrics (the gateway’s own, after reading the prediction)', () => {
    const usage = new UsageMeter();
    decode(fixture('output.stream.sse'), 10_000, usage);
    expect(usage.total).toBeUndefined();
    const polled = Buffer.from(predictionAsStream(json('prediction.response.json')));
    const chunks = decode(polled, 3, usage);
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0].delta)).toEqual([{ role: 'assistant', content: 'Waves roll, then rest.' }, {}]);
    expect(usage.total).toMatchObject({ promptTokens: 31, completionTokens: 6 });
  });

  it('keeps a multi-line output whole when the gateway writes a polled prediction as a stream', () => {
    const chunks = decode(Buffer.from(predictionAsStream({ output: ['line one\n', ' line two'] })), 4);
    expect((chunks[0].choices as JsonObject[])[0].delta).toEqual({ role: 'assistant', content: 'line one\n line two' });
  });

  it('turns an error event into an error chunk that fails the attempt before any output', () => {
    const chunks = decode(Buffer.from('event: error\ndata: {"detail": "Prediction interrupted; please retry (code: PA)"}\n\nevent: output\ndata: late\n\n'), 5);
    expect(chunks).toEqual([{ error: { message: 'Prediction interrupted; please retry (code: PA)', type: 'prediction_failed', code: 'prediction_failed', status: 502 } }]);
  });
});

describe('where the key may follow a prediction’s stream URL', () => {
  const channel = (baseUrl: string) => ({ type: CHANNEL_TYPE.REPLICATE, baseUrl }) as RelayChannel;

  it('follows Replicate’s streaming host beside its API host, over https only', () => {
    expect(streamUrlOnChannelSite(channel(''), 'https://streaming.api.replicate.com/v1/streams/abc')?.hostname).toBe('streaming.api.replicate.com');
    expect(streamUrlOnChannelSite(channel('https://api.replicate.com'), 'http://streaming.api.replicate.com/v1/streams/abc')).toBeUndefined();
  });

  it('refuses any other site, a look-alike domain, and another port of an address', () => {
    expect(streamUrlOnChannelSite(channel(''), 'https://streaming.evil.example/v1/streams/abc')).toBeUndefined();
    expect(streamUrlOnChannelSite(channel(''), 'https://replicate.com.evil.example/x')).toBeUndefined();
    expect(streamUrlOnChannelSite(channel('http://127.0.0.1:8080'), 'http://127.0.0.1:9090/stream')).toBeUndefined();
    expect(streamUrlOnChannelSite(channel('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/stream')?.port).toBe('8080');
  });
});
