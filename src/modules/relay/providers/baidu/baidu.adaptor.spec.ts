import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { AppConfig } from '../../../../config/app-config';
import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import { RelayError } from '../../relay-error';
import type { UpstreamCall, UpstreamClientService } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { baiduAnswerError, ernieEmbeddingsFromOpenAI, ernieRequestFromOpenAI } from './baidu-content';
import { BaiduTokenService } from './baidu-token.service';
import { BaiduAdaptor } from './baidu.adaptor';
import { bufferedAnswer } from './buffered-answer';

/** Golden fixtures of the ERNIE ⇄ OpenAI conversions, and the token handling, without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;

const channel = { id: 1, type: CHANNEL_TYPE.BAIDU, baseUrl: 'http://127.0.0.1:9', keys: ['ak|sk'], other: '' } as unknown as RelayChannel;
const target = (endpoint: 'chat' | 'embeddings', upstreamModel: string, stream = false): UpstreamTarget => ({ channel, key: 'ak|sk', endpoint, upstreamModel, stream });
const config = { relay: { maxResponseBodyBytes: 1024 * 1024 } } as AppConfig;

/** An upstream client that answers from a script and records what was sent. */
function scriptedUpstream(answers: Array<{ status: number; json: unknown }>) {
  const relayed: URL[] = [];
  const tokenCalls: string[] = [];
  let token = 0;
  const upstream = {
    send: (call: UpstreamCall) => {
      tokenCalls.push(String(call.body));
      token += 1;
      return Promise.resolve({ statusCode: 200, body: { text: () => Promise.resolve(JSON.stringify({ access_token: `token-${token}`, expires_in: 2592000 })) } } as unknown as Dispatcher.ResponseData);
    },
    relay: (call: UpstreamCall) => {
      relayed.push(call.url);
      const next = answers.shift() ?? { status: 200, json: {} };
      const bytes = Buffer.from(JSON.stringify(next.json));
      return Promise.resolve(bufferedAnswer(next.status, { 'content-type': 'application/json' }, bytes));
    },
  } as unknown as UpstreamClientService;
  return { upstream, relayed, tokenCalls };
}

describe('OpenAI → ERNIE (channel side)', () => {
  it('converts system and developer messages, joins turns of one role, renames and clamps sampling fields', () => {
    expect(ernieRequestFromOpenAI(json('openai-chat.request.json'))).toEqual(json('ernie-chat.request.json'));
  });

  it('refuses what ERNIE cannot take: images, tools and tool messages, token arrays for embeddings', () => {
    const image = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/cat.png' } }] }] };
    expect(() => ernieRequestFromOpenAI(image)).toThrow(RelayError);
    expect(() => ernieRequestFromOpenAI({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }] })).toThrow('Tools are not supported');
    expect(() => ernieRequestFromOpenAI({ messages: [{ role: 'tool', content: 'x' }] })).toThrow(RelayError);
    expect(() => ernieEmbeddingsFromOpenAI({ input: [[1, 2, 3]] })).toThrow(RelayError);
    expect(ernieEmbeddingsFromOpenAI({ input: 'one', user: 'u' })).toEqual({ input: ['one'], user_id: 'u' });
  });
});

describe('ERNIE → OpenAI (answers)', () => {
  const adaptor = new BaiduAdaptor({} as BaiduTokenService, {} as UpstreamClientService, config);

  it('reads a chat answer: result, finish reason, usage', () => {
    const answer = json('ernie-chat.response.json');
    expect(adaptor.toOpenAIResponse(answer, target('chat', 'ernie-4.0-8k'))).toEqual(json('openai-chat.response.json'));
    expect(adaptor.parseResponse(answer)).toEqual({ usage: { promptTokens: 9, completionTokens: 6 }, text: "ERNIE is Baidu's large language model." });
    expect(adaptor.toOpenAIResponse({ ...answer, is_truncated: true }, target('chat', 'ernie-4.0-8k'))).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it('reads an embeddings answer', () => {
    const answer = json('ernie-embeddings.response.json');
    expect(adaptor.toOpenAIResponse(answer, target('embeddings', 'embedding-v1'))).toEqual(json('openai-embeddings.response.json'));
    expect(adaptor.parseResponse(answer).usage).toEqual({ promptTokens: 4, completionTokens: 0 });
  });

  it('decodes the SSE stream into OpenAI chunks, usage from the last running total, split anywhere', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target('chat', 'ernie-4.0-8k', true), usage);
    const bytes = Buffer.from(fixture('ernie-chat.stream.sse'));
    const chunks = [...decoder.push(bytes.subarray(0, 77)), ...decoder.push(bytes.subarray(77)), ...decoder.end()];
    expect(chunks).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 9, completionTokens: 6 });
    expect(adaptor.parseStreamEvent(fixture('ernie-chat.stream.sse').split('\n\n')[2].slice(6))).toMatchObject({ usage: { promptTokens: 9, completionTokens: 6 } });
  });

  it('turns an error event in a stream into the in-stream error chunk, with its status', () => {
    const decoder = adaptor.createStreamDecoder(target('chat', 'ernie-4.0-8k', true), new UsageMeter());
    const chunks = decoder.push(Buffer.from('data: {"error_code":336100,"error_msg":"system is busy"}\n\n'));
    expect(chunks).toEqual([{ error: { message: 'system is busy (Baidu error 336100)', type: '336100', code: '336100', status: 500 } }]);
  });

  it('builds the URL of each model’s endpoint, with no token in it', () => {
    expect(adaptor.buildUrl(target('chat', 'ERNIE-4.0-8K'))?.toString()).toBe('http://127.0.0.1:9/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(adaptor.buildUrl(target('chat', 'ernie-3.5-8k'))?.pathname).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions');
    expect(adaptor.buildUrl(target('chat', 'my-custom-endpoint'))?.pathname).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/my-custom-endpoint');
    expect(adaptor.buildUrl(target('embeddings', 'bge-large-zh'))?.pathname).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/bge_large_zh');
    expect(adaptor.buildUrl({ ...target('chat', 'ernie-4.0-8k'), endpoint: 'images' })).toBeUndefined();
  });
});

describe("Baidu's errors inside 200 answers", () => {
  it.each([
    [110, 401, '110'],
    [111, 401, '111'],
    [6, 401, '6'],
    [17, 429, 'insufficient_quota'],
    [19, 429, 'insufficient_quota'],
    [18, 429, '18'],
    [336501, 429, '336501'],
    [336100, 500, '336100'],
    [336003, 400, '336003'],
  ])('error %i → status %i, code %s', (errorCode, status, code) => {
    expect(baiduAnswerError({ error_code: errorCode, error_msg: 'x' })).toMatchObject({ status, code });
  });

  it('is no error without an error_code, and scrubs URLs and tokens from the message', () => {
    expect(baiduAnswerError(json('ernie-chat.response.json'))).toBeUndefined();
    const error = baiduAnswerError({ error_code: 336003, error_msg: 'bad request to https://aip.baidubce.com/rpc/2.0/x?access_token=24.secret-token for access_token=24.secret-token' });
    expect(error?.message).not.toContain('24.secret-token');
    expect(error?.message).not.toContain('aip.baidubce.com');
  });
});

describe('access tokens', () => {
  it('caches the token per key, sends the credentials in the body, and renews it once when Baidu refuses it', async () => {
    const { upstream, relayed, tokenCalls } = scriptedUpstream([
      { status: 200, json: json('ernie-chat.response.json') },
      { status: 200, json: { error_code: 111, error_msg: 'Access token expired' } },
      { status: 200, json: json('ernie-chat.response.json') },
    ]);
    const adaptor = new BaiduAdaptor(new BaiduTokenService(upstream), upstream, config);
    const chat = target('chat', 'ernie-4.0-8k');
    const call = { url: adaptor.buildUrl(chat)!, method: 'POST' as const, headers: {}, body: '{}', headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };

    const first = await adaptor.call(chat, call);
    expect(JSON.parse((await first.collect(1 << 20))!.toString())).toMatchObject({ result: expect.any(String) });
    expect(tokenCalls).toEqual(['grant_type=client_credentials&client_id=ak&client_secret=sk']);
    expect(relayed[0].searchParams.get('access_token')).toBe('token-1');
    // The relay's own URL never gets the token.
    expect(call.url.search).toBe('');

    const renewed = await adaptor.call(chat, call);
    expect(JSON.parse((await renewed.collect(1 << 20))!.toString())).toMatchObject({ result: expect.any(String) });
    expect(tokenCalls).toHaveLength(2);
    expect(relayed.map((url) => url.searchParams.get('access_token'))).toEqual(['token-1', 'token-1', 'token-2']);
  });

  it('answers a malformed key as a refused key (401), without calling out', async () => {
    const { upstream, relayed } = scriptedUpstream([]);
    const adaptor = new BaiduAdaptor(new BaiduTokenService(upstream), upstream, config);
    const chat = { ...target('chat', 'ernie-4.0-8k'), key: 'only-one-part' };
    const answer = await adaptor.call(chat, { url: adaptor.buildUrl(chat)!, method: 'POST', headers: {}, body: '{}', headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
    expect(answer.statusCode).toBe(401);
    expect(relayed).toHaveLength(0);
  });

  it('passes a stream through untouched', async () => {
    const stream = bufferedAnswer(200, { 'content-type': 'text/event-stream' }, Buffer.from(fixture('ernie-chat.stream.sse')));
    const upstream = { send: scriptedUpstream([]).upstream.send, relay: () => Promise.resolve(stream) } as unknown as UpstreamClientService;
    const adaptor = new BaiduAdaptor(new BaiduTokenService(upstream), upstream, config);
    const chat = target('chat', 'ernie-4.0-8k', true);
    expect(await adaptor.call(chat, { url: adaptor.buildUrl(chat)!, method: 'POST', headers: {}, body: '{}', headersTimeoutMs: 1000, bodyTimeoutMs: 1000 })).toBe(stream);
  });
});
