import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { AliAdaptor } from './ali.adaptor';

/** Golden fixtures of DashScope ⇄ OpenAI conversions, both modes' URLs and DashScope's error codes, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new AliAdaptor();
const COMPATIBLE = 'http://127.0.0.1:9/compatible-mode/v1';
const target = (fields: Partial<UpstreamTarget> & { baseUrl?: string }): UpstreamTarget =>
  ({ channel: { baseUrl: fields.baseUrl ?? '', type: 17, other: '', setting: {} }, key: 'sk-dashscope', endpoint: 'chat', upstreamModel: 'qwen-plus-latest', stream: false, ...fields }) as unknown as UpstreamTarget;

describe('Alibaba DashScope, native mode (channel type 17)', () => {
  it('builds the text-generation and text-embedding URLs, and asks for SSE on streams', () => {
    expect(adaptor.buildUrl(target({}))?.href).toBe('https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation');
    expect(adaptor.buildUrl(target({ endpoint: 'embeddings', baseUrl: 'http://127.0.0.1:9/api/v1/' }))?.href).toBe('http://127.0.0.1:9/api/v1/services/embeddings/text-embedding/text-embedding');
    expect(adaptor.buildUrl(target({ endpoint: 'images' }))).toBeUndefined();
    expect(adaptor.buildHeaders(target({ stream: true }))).toEqual({ authorization: 'Bearer sk-dashscope', 'x-dashscope-sse': 'enable', accept: 'text/event-stream' });
    expect(adaptor.clientFormatFor(target({}))).toBeUndefined();
    expect(adaptor.modelsUrl(target({}).channel).href).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/models');
  });

  it('converts an OpenAI chat: messages in input, the rest renamed into parameters, top_p clamped, incremental streams', async () => {
    expect(await adaptor.convertRequest(target({ stream: true }), json('openai-chat.request.json'))).toEqual(json('dashscope.request.json'));
  });

  it('reads an answer back: reasoning, cached and reasoning tokens', () => {
    const answer = adaptor.toOpenAIResponse(json('dashscope.response.json'), target({}));
    expect({ ...answer, created: undefined }).toEqual({ ...json('openai-from-dashscope.response.json'), created: undefined });
    expect(adaptor.parseResponse(json('dashscope.response.json'))).toEqual({
      usage: { promptTokens: 52, completionTokens: 14, cachedTokens: 32, reasoningTokens: 5 },
      text: 'It is sunny in Hangzhou, 25°C.The tool said sunny.',
    });
  });

  it('reads a tool call as OpenAI writes one (no content) with its finish reason', () => {
    const call = { id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
    const answer = adaptor.toOpenAIResponse({ output: { choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: '', tool_calls: [call] } }] }, usage: { input_tokens: 5, output_tokens: 3 } }, target({}));
    expect(answer.choices).toEqual([{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }]);
  });

  it('decodes the SSE stream (id, event and :HTTP_STATUS lines, usage running totals), cut anywhere', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target({ stream: true }), usage);
    const bytes = Buffer.from(fixture('dashscope.stream.sse'));
    const chunks: JsonObject[] = [];
    for (let at = 0; at < bytes.length; at += 9) chunks.push(...decoder.push(bytes.subarray(at, at + 9)));
    chunks.push(...decoder.end());
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai-from-dashscope.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 52, completionTokens: 7, cachedTokens: 32, reasoningTokens: 1 });
  });

  it('converts embeddings both ways, in input order, all tokens as input', async () => {
    expect(await adaptor.convertRequest(target({ endpoint: 'embeddings', upstreamModel: 'text-embedding-v3' }), { model: 'x', input: ['one', 'two'], dimensions: 512 })).toEqual({
      model: 'text-embedding-v3',
      input: { texts: ['one', 'two'] },
      parameters: { dimension: 512 },
    });
    const answer = adaptor.toOpenAIResponse(json('dashscope-embeddings.response.json'), target({ endpoint: 'embeddings', upstreamModel: 'text-embedding-v3' }));
    expect(answer).toEqual(json('openai-from-dashscope-embeddings.response.json'));
    expect(adaptor.parseResponse(json('dashscope-embeddings.response.json')).usage).toMatchObject({ promptTokens: 6, completionTokens: 0 });
  });

  it("reads DashScope's error codes: InvalidApiKey is a bad key, Arrearage an exhausted account, throttling a rate limit", () => {
    expect(adaptor.errorAnswer(401, { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'r1' })).toEqual({ status: 401, message: 'Invalid API-key provided.', code: 'InvalidApiKey' });
    expect(adaptor.errorAnswer(400, { code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.' })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.errorAnswer(400, { code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded' })).toMatchObject({ status: 429, code: 'Throttling.RateQuota' });
    expect(adaptor.errorAnswer(400, { code: 'InvalidParameter', message: 'bad' })).toMatchObject({ status: 400, code: 'InvalidParameter' });
    expect(adaptor.answerError(json('dashscope.response.json'))).toBeUndefined();
    const decoder = adaptor.createStreamDecoder(target({ stream: true }), new UsageMeter());
    expect(decoder.push(Buffer.from('id:1\nevent:error\n:HTTP_STATUS/400\ndata:{"code":"DataInspectionFailed","message":"Input data may contain inappropriate content.","request_id":"r2"}\n\n'))).toEqual([
      { error: { message: 'Input data may contain inappropriate content.', type: 'DataInspectionFailed', code: 'DataInspectionFailed', status: 400 } },
    ]);
  });
});

describe('Alibaba DashScope, compatible mode (a base URL naming compatible-mode)', () => {
  it('relays OpenAI-style to …/compatible-mode/v1, taking OpenAI clients’ bodies as they are', async () => {
    expect(adaptor.buildUrl(target({ baseUrl: COMPATIBLE }))?.href).toBe(`${COMPATIBLE}/chat/completions`);
    expect(adaptor.buildUrl(target({ baseUrl: 'http://127.0.0.1:9/compatible-mode', endpoint: 'embeddings' }))?.href).toBe(`${COMPATIBLE}/embeddings`);
    expect(adaptor.buildHeaders(target({ baseUrl: COMPATIBLE, stream: true }))).toEqual({ authorization: 'Bearer sk-dashscope' });
    expect(adaptor.clientFormatFor(target({ baseUrl: COMPATIBLE }))).toBe('openai');
    expect(adaptor.keepsClientBody(target({ baseUrl: COMPATIBLE }), { model: 'qwen-plus-latest' })).toBe(true);
    expect(adaptor.addedMembers(target({ baseUrl: COMPATIBLE, stream: true }), { model: 'qwen-plus-latest', stream: true })).toBe('"stream_options":{"include_usage":true}');
    expect(await adaptor.convertRequest(target({ baseUrl: COMPATIBLE }), { model: 'x', messages: [] })).toEqual({ model: 'qwen-plus-latest', messages: [] });
    expect(adaptor.modelsUrl(target({ baseUrl: COMPATIBLE }).channel).href).toBe(`${COMPATIBLE}/models`);
  });

  it('reads OpenAI answers and errors in the OpenAI shape', () => {
    const answer = { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } };
    expect(adaptor.parseResponse(answer)).toEqual({ usage: { promptTokens: 3, completionTokens: 1, cachedTokens: 0 }, text: 'Hi' });
    expect(adaptor.toOpenAIResponse(answer, target({ baseUrl: COMPATIBLE }))).toBe(answer);
    expect(adaptor.errorAnswer(400, { error: { code: 'Arrearage', message: 'Access denied', type: 'Arrearage' } })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.errorAnswer(401, { error: { code: 'invalid_api_key', message: 'Incorrect API key provided.', type: 'invalid_request_error' } })).toMatchObject({ status: 401 });
  });
});
