import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RelayChannel } from '../../caches/relay-channel';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { hunyuanAnswerError, hunyuanEmbeddingsFromOpenAI, parseTencentKey, readHunyuanAnswer } from './hunyuan-content';
import { tc3Authorization } from './tc3-signature';
import { TencentAdaptor } from './tencent.adaptor';

/** Golden fixtures of every Hunyuan ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new TencentAdaptor();
const channel = { type: 23, baseUrl: '', other: '' } as RelayChannel;
const target = (endpoint: 'chat' | 'embeddings', stream = false): UpstreamTarget => ({ channel, key: '1300000001|AKIDexample|secret-example', endpoint, upstreamModel: endpoint === 'chat' ? 'hunyuan-turbo' : 'hunyuan-embedding', stream });

describe('TC3-HMAC-SHA256', () => {
  it("signs Tencent's published example (CVM DescribeInstances, 2019-02-25) to its published signature", () => {
    const authorization = tc3Authorization({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      contentType: 'application/json; charset=utf-8',
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      timestamp: 1551113065,
    });
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('signs the final body with the action and version headers, for the URL’s host', () => {
    const url = adaptor.buildUrl(target('chat'))!;
    expect(url.href).toBe('https://hunyuan.tencentcloudapi.com/');
    const headers = adaptor.buildHeaders(target('chat'), { url, body: '{"Model":"hunyuan-turbo"}' });
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01', 'x-tc-timestamp': expect.stringMatching(/^\d+$/) });
    const timestamp = Number(headers['x-tc-timestamp']);
    expect(headers.authorization).toBe(tc3Authorization({ secretId: 'AKIDexample', secretKey: 'secret-example', service: 'hunyuan', host: 'hunyuan.tencentcloudapi.com', contentType: 'application/json', payload: '{"Model":"hunyuan-turbo"}', timestamp }));
    expect(adaptor.buildHeaders(target('embeddings'), { url, body: '{}' })['x-tc-action']).toBe('GetEmbedding');
    expect(adaptor.buildUrl({ ...target('chat'), endpoint: 'images' })).toBeUndefined();
  });

  it('reads the key as AppId|SecretId|SecretKey (the AppId unused) or SecretId|SecretKey, and refuses another shape as a broken key', () => {
    expect(parseTencentKey('1300000001|AKID|SK')).toEqual({ secretId: 'AKID', secretKey: 'SK' });
    expect(parseTencentKey('AKID|SK')).toEqual({ secretId: 'AKID', secretKey: 'SK' });
    expect(() => parseTencentKey('AKID')).toThrow(expect.objectContaining({ code: 'channel:unauthorized' }));
  });
});

describe('OpenAI → Hunyuan (channel side)', () => {
  it('converts a chat: roles, images as Contents, tool calls and results, tools, a forced tool, sampling, seed and stops (no output limit: Hunyuan has none)', async () => {
    expect(await adaptor.convertRequest(target('chat', true), json('openai-chat.request.json'))).toEqual(json('hunyuan-chat.request.json'));
  });

  it("leaves `required` to Hunyuan's default, which has no \"any tool\" choice", async () => {
    const body = { ...json('openai-chat.request.json'), tool_choice: 'required' };
    const request = await adaptor.convertRequest(target('chat'), body);
    expect(request).not.toHaveProperty('ToolChoice');
    expect(request).not.toHaveProperty('CustomTool');
    expect((await adaptor.convertRequest(target('chat'), { ...body, tool_choice: 'none' })).ToolChoice).toBe('none');
  });

  it('converts embeddings: one text as Input, several as InputList', () => {
    expect(hunyuanEmbeddingsFromOpenAI({ input: 'one' })).toEqual({ Input: 'one' });
    expect(hunyuanEmbeddingsFromOpenAI({ input: ['one', 'two'] })).toEqual({ InputList: ['one', 'two'] });
  });
});

describe('Hunyuan → OpenAI (answers)', () => {
  it('reads a ChatCompletions answer as an OpenAI completion, with its usage', () => {
    expect(adaptor.toOpenAIResponse(json('hunyuan.response.json'), target('chat'))).toEqual(json('openai.response.json'));
    expect(adaptor.parseResponse(json('hunyuan.response.json'))).toEqual({ usage: { promptTokens: 29, completionTokens: 8 }, text: 'It is ginger and white.' });
  });

  it('reads a GetEmbedding answer as OpenAI’s embeddings answer', () => {
    expect(adaptor.toOpenAIResponse(json('hunyuan-embedding.response.json'), target('embeddings'))).toEqual(json('openai-embeddings.response.json'));
    expect(readHunyuanAnswer(json('hunyuan-embedding.response.json')).usage).toEqual({ promptTokens: 6, completionTokens: 0 });
  });

  it('decodes the SSE stream into OpenAI chunks, usage from the last running total', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target('chat', true), usage);
    const bytes = Buffer.from(fixture('hunyuan.stream.sse'));
    const chunks = [...decoder.push(bytes.subarray(0, 200)), ...decoder.push(bytes.subarray(200)), ...decoder.end()];
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai.stream-chunks.json'));
    expect(chunks[0]).toMatchObject({ id: '7c1d2e3f-4a5b-4c6d-8e9f-a0b1c2d3e4f5', object: 'chat.completion.chunk', model: 'hunyuan-turbo' });
    expect(usage.total).toMatchObject({ promptTokens: 29, completionTokens: 8 });
  });

  it('reads a tool call, whole and streamed in pieces (numbered by its id, the name only in the first piece)', () => {
    const whole = { Response: { Id: 'req-2', Choices: [{ Message: { Role: 'assistant', Content: '', ToolCalls: [{ Id: 'call_1', Type: 'function', Function: { Name: 'locate_pet', Arguments: '{"pet":"cat"}' } }] }, FinishReason: 'tool_calls' }] } };
    expect(adaptor.toOpenAIResponse(whole, target('chat')).choices).toEqual([
      { index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'locate_pet', arguments: '{"pet":"cat"}' } }] }, finish_reason: 'tool_calls' },
    ]);
    expect(adaptor.parseResponse(whole).text).toBe('locate_pet{"pet":"cat"}');
    const usage = new UsageMeter();
    const chunks = adaptor.createStreamDecoder(target('chat', true), usage).push(Buffer.from(fixture('hunyuan-tool-call.stream.sse')));
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai-tool-call.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 40, completionTokens: 7 });
  });

  it('maps a moderated stream’s finish to content_filter', () => {
    const chunks = adaptor.createStreamDecoder(target('chat', true), new UsageMeter()).push(Buffer.from('data: {"Choices":[{"Delta":{"Role":"assistant","Content":""},"FinishReason":"sensitive"}]}\n\n'));
    expect(chunks).toMatchObject([{ choices: [{ finish_reason: 'content_filter' }] }]);
  });
});

describe("Tencent's errors inside 200 answers", () => {
  it.each([
    ['AuthFailure.SignatureFailure', 401, 'AuthFailure.SignatureFailure'],
    ['AuthFailure.SecretIdNotFound', 401, 'AuthFailure.SecretIdNotFound'],
    ['AuthFailure.SignatureExpire', 500, 'AuthFailure.SignatureExpire'],
    ['UnauthorizedOperation', 401, 'UnauthorizedOperation'],
    ['FailedOperation.ServiceStop', 429, 'insufficient_quota'],
    ['FailedOperation.ServiceStopArrears', 429, 'insufficient_quota'],
    ['ResourceUnavailable.LowBalance', 429, 'insufficient_quota'],
    ['ResourceInsufficient.ChargeResourceExhaust', 429, 'insufficient_quota'],
    ['RequestLimitExceeded.UinLimitExceeded', 429, 'RequestLimitExceeded.UinLimitExceeded'],
    ['FailedOperation.EngineServerError', 500, 'FailedOperation.EngineServerError'],
    ['OperationDenied.TextIllegalDetected', 400, 'content_filter'],
    ['InvalidParameterValue.Model', 400, 'InvalidParameterValue.Model'],
  ])('%s → status %i (%s)', (code, status, errorCode) => {
    const body = { Response: { Error: { Code: code, Message: 'refused' }, RequestId: 'req-1' } };
    expect(adaptor.answerError(body)).toEqual({ status, code: errorCode, message: `Tencent Hunyuan error ${code}: refused` });
  });

  it('reads an error inside a stream (ErrorMsg) as an in-stream error chunk, and a good answer as none', () => {
    expect(hunyuanAnswerError({ ErrorMsg: { Code: 4001, Msg: '请求模型超时' } })).toEqual({ status: 503, code: '4001', message: 'Tencent Hunyuan error 4001: 请求模型超时' });
    const chunks = adaptor.createStreamDecoder(target('chat', true), new UsageMeter()).push(Buffer.from('data: {"ErrorMsg":{"Code":4000,"Msg":"服务内部异常"}}\n\n'));
    expect(chunks).toEqual([{ error: { message: 'Tencent Hunyuan error 4000: 服务内部异常', type: '4000', code: '4000', status: 500 } }]);
    expect(adaptor.answerError(json('hunyuan.response.json'))).toBeUndefined();
  });
});
