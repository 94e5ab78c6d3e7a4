import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { ZhipuAdaptor } from './zhipu.adaptor';
import { ZhipuTokenService } from './zhipu-token.service';
import { openAIResponseFromZhipuV3, readZhipuV3Answer, ZhipuV3StreamDecoder, zhipuRequestFromOpenAI } from './zhipu-v3';
import { ZhipuV4Adaptor } from './zhipu-v4.adaptor';

/** Golden fixtures of Zhipu's v3 ⇄ OpenAI conversions, its JWT and its error codes, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const KEY = 'a1b2c3d4e5f6.s3cr3t-part';
const target = (fields: Partial<UpstreamTarget> & { baseUrl?: string }): UpstreamTarget =>
  ({ channel: { baseUrl: fields.baseUrl ?? '', type: 16, other: '', setting: {} }, key: KEY, endpoint: 'chat', upstreamModel: 'chatglm_turbo', stream: false, ...fields }) as unknown as UpstreamTarget;

function decodeSegment(segment: string): JsonObject {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as JsonObject;
}

describe('Zhipu tokens', () => {
  afterEach(() => jest.restoreAllMocks());

  it('signs an HS256 JWT with the secret: sign_type SIGN, the id, exp and timestamp in milliseconds', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const token = new ZhipuTokenService().token(KEY);
    const [header, payload, signature] = token.split('.');
    expect(decodeSegment(header)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(decodeSegment(payload)).toEqual({ api_key: 'a1b2c3d4e5f6', exp: 1_700_000_000_000 + 30 * 60_000, timestamp: 1_700_000_000_000 });
    expect(signature).toBe(createHmac('sha256', 's3cr3t-part').update(`${header}.${payload}`).digest('base64url'));
  });

  it('keeps a token until shortly before it expires, then signs a new one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const tokens = new ZhipuTokenService();
    const first = tokens.token(KEY);
    now.mockReturnValue(1_700_000_000_000 + 24 * 60_000);
    expect(tokens.token(KEY)).toBe(first);
    now.mockReturnValue(1_700_000_000_000 + 26 * 60_000);
    expect(tokens.token(KEY)).not.toBe(first);
  });

  it('sends a plain key as it is for v4, and refuses it for v3 as the channel’s fault', () => {
    const tokens = new ZhipuTokenService();
    expect(tokens.bearer('plain-api-key')).toBe('Bearer plain-api-key');
    expect(tokens.bearer(KEY)).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(() => tokens.token('plain-api-key')).toThrow('id.secret');
  });
});

describe('Zhipu v3 (channel type 16)', () => {
  const adaptor = new ZhipuAdaptor(new ZhipuTokenService());

  it('builds invoke and sse-invoke URLs, a pasted API path dropped, and sends the JWT as the Authorization header', () => {
    expect(adaptor.buildUrl(target({}))?.href).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(adaptor.buildUrl(target({ stream: true, baseUrl: 'http://127.0.0.1:9/api/paas/v3/' }))?.href).toBe('http://127.0.0.1:9/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
    expect(adaptor.buildUrl(target({ endpoint: 'embeddings' }))).toBeUndefined();
    expect(adaptor.buildHeaders(target({ stream: true }))).toEqual({ authorization: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), accept: 'text/event-stream' });
  });

  it('converts an OpenAI chat into a prompt: the system prompt as an acknowledged turn, text parts only, sampling clamped', () => {
    expect(zhipuRequestFromOpenAI(json('openai-chat.request.json'), true)).toEqual(json('zhipu-v3.request.json'));
    expect(zhipuRequestFromOpenAI({ messages: [], temperature: 0 }, false)).toEqual({ prompt: [], temperature: 0.01 });
  });

  it('reads an invoke answer back, its JSON-encoded content decoded, with its usage', () => {
    const answer = openAIResponseFromZhipuV3(json('zhipu-v3.response.json'), 'chatglm_turbo');
    expect({ ...answer, created: undefined }).toEqual({ ...json('openai-from-zhipu-v3.response.json'), created: undefined });
    expect(readZhipuV3Answer(json('zhipu-v3.response.json'))).toEqual({ usage: { promptTokens: 24, completionTokens: 9, cachedTokens: 0 }, text: ' Il s\'appelle\n"Minou".' });
  });

  it('decodes sse-invoke (raw-text data lines, meta on finish) into OpenAI chunks, cut anywhere', () => {
    const usage = new UsageMeter();
    const decoder = new ZhipuV3StreamDecoder('chatglm_turbo', usage);
    const bytes = Buffer.from(fixture('zhipu-v3.stream.sse'));
    const chunks: JsonObject[] = [];
    for (let at = 0; at < bytes.length; at += 5) chunks.push(...decoder.push(bytes.subarray(at, at + 5)));
    chunks.push(...decoder.end());
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai-from-zhipu-v3.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 24, completionTokens: 9 });
  });

  it('turns error and interrupted events into an error chunk and a content_filter finish', () => {
    const decoder = new ZhipuV3StreamDecoder('chatglm_turbo', new UsageMeter());
    expect(decoder.push(Buffer.from('event:error\ndata:model overloaded\n\n'))).toEqual([{ error: { message: 'model overloaded', type: 'upstream_error', code: null, status: 500 } }]);
    expect(decoder.push(Buffer.from('event:interrupted\ndata:\n\n'))[0]).toMatchObject({ choices: [{ delta: { role: 'assistant' }, finish_reason: 'content_filter' }] });
  });

  it("reads errors inside 200 answers by Zhipu's codes: a bad token is 401, arrears an exhausted account", () => {
    expect(adaptor.answerError(json('zhipu-v3.response.json'))).toBeUndefined();
    expect(adaptor.answerError({ code: 1002, msg: 'Authorization Token非法', success: false })).toEqual({ status: 401, message: 'Authorization Token非法', code: '1002' });
    expect(adaptor.answerError({ code: 1113, msg: '您的账户已欠费', success: false })).toEqual({ status: 429, message: '您的账户已欠费', code: 'insufficient_quota' });
    expect(adaptor.answerError({ code: 1214, msg: 'prompt 参数非法', success: false })).toEqual({ status: 400, message: 'prompt 参数非法', code: '1214' });
    expect(adaptor.errorAnswer(500, { code: 500, msg: 'busy', success: false })).toEqual({ status: 500, message: 'busy', code: '500' });
  });
});

describe('Zhipu v4 (channel type 26)', () => {
  const adaptor = new ZhipuV4Adaptor(new ZhipuTokenService());

  it('relays OpenAI bodies under /api/paas/v4 with the JWT (or a plain key) as the bearer token', () => {
    expect(adaptor.buildUrl(target({ upstreamModel: 'glm-4-flash', baseUrl: 'http://127.0.0.1:9/api/paas/v4' }))?.href).toBe('http://127.0.0.1:9/api/paas/v4/chat/completions');
    expect(adaptor.buildUrl(target({ endpoint: 'embeddings' }))?.href).toBe('https://open.bigmodel.cn/api/paas/v4/embeddings');
    expect(adaptor.buildHeaders(target({}))).toEqual({ authorization: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(adaptor.buildHeaders(target({ key: 'plain' }))).toEqual({ authorization: 'Bearer plain' });
    expect(adaptor.fitRequest(target({ stream: true }), { model: 'x', stream: true })).toEqual({ model: 'chatglm_turbo', stream: true, stream_options: { include_usage: true } });
  });

  it("reads Zhipu's error shape by its code, and leaves other shapes to the relay", () => {
    expect(adaptor.errorAnswer(401, { error: { code: '1001', message: 'Header中未收到Authorization参数' } })).toMatchObject({ status: 401, code: '1001' });
    expect(adaptor.errorAnswer(429, { error: { code: '1113', message: '余额不足' } })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.errorAnswer(429, { error: { code: '1302', message: '并发数过高' } })).toMatchObject({ status: 429, code: '1302' });
    expect(adaptor.errorAnswer(400, { error: { code: '1214', message: 'bad' } })).toMatchObject({ status: 400, code: '1214' });
    expect(adaptor.errorAnswer(502, { message: 'bad gateway' })).toBeUndefined();
  });

  it('reads an error event in the stream by its code, and the usage of the last chunk', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target({ stream: true }), usage);
    const chunks = decoder.push(Buffer.from('data: {"error":{"code":"1301","message":"系统检测到输入或生成内容可能包含不安全或敏感内容"}}\n\ndata: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}\n\ndata: [DONE]\n\n'));
    expect(chunks[0]).toEqual({ error: { message: '系统检测到输入或生成内容可能包含不安全或敏感内容', type: '1301', code: '1301', status: 400 } });
    expect(chunks[1]).toMatchObject({ choices: [{ delta: { content: 'Hi' } }] });
    expect(usage.total).toMatchObject({ promptTokens: 3, completionTokens: 1 });
  });
});
