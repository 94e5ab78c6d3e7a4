import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RelayError } from '../../relay-error';
import type { JsonObject } from '../../wire/wire-format';
import { SseDecoder, SseJsonDecoder } from '../../wire/sse-decoder';
import { UsageMeter } from '../../wire/usage';
import { joinSparkFrames, openAIResponseFromSpark, parseSparkKey, readSparkAnswer, sparkAnswerError, SparkChunkTranslator, sparkRequestFromOpenAI } from './spark-content';
import { sparkVersion } from './spark-versions';

/** Golden fixtures of every Spark ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const frames = (): JsonObject[] => new SseDecoder().push(Buffer.from(fixture('spark.frames.sse'))).map((event) => JSON.parse(event.data) as JsonObject);

describe('Spark versions', () => {
  it.each([
    ['SparkDesk-v3.5', 'v2.1', '/v3.5/chat', 'generalv3.5'],
    ['SparkDesk', 'v4.0', '/v4.0/chat', '4.0Ultra'],
    ['SparkDesk', '', '/v2.1/chat', 'generalv2'],
    ['Spark-Max-32K', '', '/chat/max-32k', 'max-32k'],
    ['spark-lite', 'v3.5', '/v1.1/chat', 'lite'],
    ['SparkDesk', 'v3.1-128K', '/chat/pro-128k', 'pro-128k'],
    ['SparkDesk-v5.0', '', '/v5.0/chat', 'generalv5.0'],
  ])('%s on a channel set to "%s" → %s (%s)', (model, other, url, domain) => {
    expect(sparkVersion(model, other)).toMatchObject({ path: url, domain });
  });

  it('refuses a version Spark does not serve, as the channel’s fault', () => {
    expect(() => sparkVersion('SparkDesk', '../admin')).toThrow(RelayError);
  });
});

describe('OpenAI chat → Spark request frame', () => {
  it('keeps the system message for versions that take one; text only, uid cut to 32 characters', () => {
    expect(sparkRequestFromOpenAI(json('openai-chat.request.json'), 'app-0001', sparkVersion('SparkDesk-v3.5', ''))).toEqual(json('spark-v3.5.request.json'));
  });

  it('folds the system text into the first user turn for versions without a system role', () => {
    expect(sparkRequestFromOpenAI(json('openai-chat.request.json'), 'app-0001', sparkVersion('SparkDesk-v1.1', ''))).toEqual(json('spark-v1.1.request.json'));
  });

  it('reads the key as APPID|APISecret|APIKey and refuses another shape as a broken key', () => {
    expect(parseSparkKey(' app | secret | key ')).toEqual({ appId: 'app', apiSecret: 'secret', apiKey: 'key' });
    expect(() => parseSparkKey('only-one-part')).toThrow(expect.objectContaining({ code: 'channel:unauthorized' }));
  });
});

describe('Spark answer frames → OpenAI', () => {
  it('joins the frames of a whole answer (the last frame’s header and usage) and reads it as an OpenAI completion', () => {
    const joined = joinSparkFrames(frames());
    expect(joined).toEqual(json('spark.joined.json'));
    expect(readSparkAnswer(joined)).toEqual({ usage: { promptTokens: 31, completionTokens: 7 }, text: 'It is ginger and white.' });
    expect({ ...openAIResponseFromSpark(joined, 'SparkDesk-v3.5'), created: undefined }).toEqual({ ...json('openai.response.json'), created: undefined });
  });

  it('decodes the frames, re-framed as SSE, into OpenAI chunks, usage from the last frame', () => {
    const usage = new UsageMeter();
    const translator = new SparkChunkTranslator('SparkDesk-v3.5', usage);
    const decoder = new SseJsonDecoder((frame) => translator.translate(frame));
    const bytes = Buffer.from(fixture('spark.frames.sse'));
    // Split mid-frame: the decoder keeps the unfinished line.
    const chunks = [...decoder.push(bytes.subarray(0, 150)), ...decoder.push(bytes.subarray(150)), ...decoder.end()];
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai.stream-chunks.json'));
    expect(chunks[0]).toMatchObject({ id: 'chatcmpl-cht000b41d@dx193f0a2b1ab9a4b540', object: 'chat.completion.chunk', model: 'SparkDesk-v3.5' });
    expect(usage.total).toMatchObject({ promptTokens: 31, completionTokens: 7 });
  });

  it.each([
    [11200, 429, 'insufficient_quota'],
    [10016, 429, 'insufficient_quota'],
    [10015, 401, '10015'],
    [11500, 401, '11500'],
    [11202, 429, '11202'],
    [10013, 400, 'content_filter'],
    [10907, 400, 'context_length_exceeded'],
    [10110, 503, '10110'],
    [19999, 500, '19999'],
  ])('maps error code %i to status %i (%s), whole or in a stream', (code, status, errorCode) => {
    const frame = { header: { code, message: 'refused', sid: 'cht-err', status: 2 } };
    expect(sparkAnswerError(frame)).toEqual({ status, code: errorCode, message: `iFlytek Spark error ${code}: refused` });
    expect(new SparkChunkTranslator('SparkDesk', new UsageMeter()).translate(frame)).toEqual([{ error: { message: `iFlytek Spark error ${code}: refused`, type: errorCode, code: errorCode, status } }]);
  });

  it('reads a successful frame as no error', () => {
    expect(sparkAnswerError(frames()[0])).toBeUndefined();
    expect(sparkAnswerError('not a frame')).toBeUndefined();
  });
});
