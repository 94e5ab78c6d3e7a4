import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { FastGPTAdaptor } from './fastgpt.adaptor';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string) => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new FastGPTAdaptor();
const target = (baseUrl = '') => ({ channel: { type: 22, baseUrl, other: '', keys: ['fastgpt-key'] }, key: 'fastgpt-key', endpoint: 'chat', upstreamModel: 'fastgpt-app', stream: true }) as unknown as UpstreamTarget;

describe('FastGPTAdaptor', () => {
  it("calls the app's OpenAI-shaped chat completions under the base URL, with the app key as a bearer token", () => {
    expect(adaptor.buildUrl(target())?.href).toBe('https://api.fastgpt.in/api/v1/chat/completions');
    expect(adaptor.buildUrl(target('http://fastgpt.local:3000/api/v1'))?.href).toBe('http://fastgpt.local:3000/api/v1/chat/completions');
    expect(adaptor.buildHeaders(target())).toMatchObject({ authorization: 'Bearer fastgpt-key' });
  });

  it('forces detail off and passes the client’s chatId and variables on; adds no chatId of its own', async () => {
    expect(await adaptor.convertRequest(target(), json('openai-chat.request.json'))).toEqual(json('fastgpt.request.json'));
    expect(await adaptor.convertRequest(target(), { model: 'fastgpt-app', messages: [] })).toEqual({ model: 'fastgpt-app', messages: [], detail: false });
  });

  it("drops detail's node results and FastGPT's stand-in usage (1/1/1), which is counted locally; a real usage is billed", () => {
    const answer = json('fastgpt.response.json');
    expect(adaptor.toOpenAIResponse(answer)).toEqual(json('openai.response.json'));
    expect(adaptor.parseResponse(answer)).toEqual({ usage: undefined, text: '电影《铃芽之旅》的导演是新海诚。' });
    const counted = { ...answer, usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } };
    expect(adaptor.parseResponse(counted).usage).toMatchObject({ promptTokens: 40, completionTokens: 12 });
    expect(adaptor.toOpenAIResponse(counted).usage).toEqual({ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
  });

  it('decodes its stream (OpenAI chunks without usage) as it is', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target(), usage);
    const bytes = Buffer.from(fixture('fastgpt.stream.sse'));
    expect([...decoder.push(bytes.subarray(0, 50)), ...decoder.push(bytes.subarray(50)), ...decoder.end()]).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toBeUndefined();
  });

  it('reads its named errors, answered with HTTP 200: a bad key 401, no balance insufficient_quota, others by code', () => {
    expect(adaptor.answerError({ code: 514, statusText: 'unAuthApiKey', message: 'Api Key 不合法', data: null })).toEqual({ status: 401, message: 'Api Key 不合法', code: 'unAuthApiKey' });
    expect(adaptor.answerError({ code: 510, statusText: 'insufficientQuota', message: '账号余额不足', data: null })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.answerError({ code: 500, statusText: '', message: 'app not found', data: null })).toEqual({ status: 500, message: 'app not found', code: undefined });
    expect(adaptor.answerError(json('fastgpt.response.json'))).toBeUndefined();
    const decoder = adaptor.createStreamDecoder(target(), new UsageMeter());
    expect(decoder.push(Buffer.from('data: {"code":514,"statusText":"unAuthApiKey","message":"Api Key 不合法"}\n\n'))).toEqual([{ error: { message: 'Api Key 不合法', type: 'unAuthApiKey', code: 'unAuthApiKey', status: 401 } }]);
  });
});
