import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { MiniMaxAdaptor } from './minimax.adaptor';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string) => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new MiniMaxAdaptor();
const target = (endpoint: string, stream = false, baseUrl = '') =>
  ({ channel: { type: 35, baseUrl, other: '', keys: ['mm-key'] }, key: 'mm-key', endpoint, upstreamModel: endpoint === 'chat' ? 'MiniMax-M1' : 'embo-01', stream }) as unknown as UpstreamTarget;

/** All of a stream decoded, cut at an arbitrary byte. */
function decode(sse: string, usage = new UsageMeter()): JsonObject[] {
  const decoder = adaptor.createStreamDecoder(target('chat', true), usage);
  const bytes = Buffer.from(sse);
  return [...decoder.push(bytes.subarray(0, 97)), ...decoder.push(bytes.subarray(97)), ...decoder.end()];
}

describe('MiniMaxAdaptor', () => {
  it('calls chat completion v2 and the embeddings API under the base URL (a pasted /v1 dropped), with the key as a bearer token', () => {
    expect(adaptor.buildUrl(target('chat'))?.href).toBe('https://api.minimaxi.com/v1/text/chatcompletion_v2');
    expect(adaptor.buildUrl(target('embeddings', false, 'https://api.minimax.io/v1/'))?.href).toBe('https://api.minimax.io/v1/embeddings');
    expect(adaptor.buildUrl(target('images'))).toBeUndefined();
    expect(adaptor.buildHeaders(target('chat'))).toEqual({ authorization: 'Bearer mm-key' });
  });

  it('sends an OpenAI chat as it is (the upstream model, no stream_options) and reads the answer back without base_resp', async () => {
    const body = await adaptor.convertRequest(target('chat', true), { model: 'minimax-alias', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(body).toEqual({ model: 'MiniMax-M1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const answer = json('minimax.chat-response.json');
    expect(adaptor.answerError(answer)).toBeUndefined();
    expect(adaptor.toOpenAIResponse(answer, target('chat'))).toEqual(json('openai.chat-response.json'));
    expect(adaptor.parseResponse(answer)).toMatchObject({ usage: { promptTokens: 26, completionTokens: 223, reasoningTokens: 214 }, text: 'Hello! How can I assist you?The user greets me.' });
  });

  it('converts embeddings both ways: input → texts (type db unless the client says query), vectors → data', async () => {
    expect(await adaptor.convertRequest(target('embeddings'), json('openai.embeddings-request.json'))).toEqual(json('minimax.embeddings-request.json'));
    expect(await adaptor.convertRequest(target('embeddings'), { model: 'embo-01', input: 'one' })).toEqual({ model: 'embo-01', texts: ['one'], type: 'db' });
    await expect(adaptor.convertRequest(target('embeddings'), { input: [[1, 2]] })).rejects.toMatchObject({ status: 400 });
    const answer = json('minimax.embeddings-response.json');
    expect(adaptor.toOpenAIResponse(answer, target('embeddings'))).toEqual(json('openai.embeddings-response.json'));
    expect(adaptor.parseResponse(answer).usage).toEqual({ promptTokens: 6 });
  });

  it('decodes the stream: deltas as they are, the last event (the whole message again) as the finishing chunk, usage from it', () => {
    const usage = new UsageMeter();
    expect(decode(fixture('minimax.stream.sse'), usage)).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 21, completionTokens: 9 });
  });

  it('sends the last event’s message when no delta carried the answer', () => {
    const only = { id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'All at once', name: 'MiniMax AI' } }], usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 }, base_resp: { status_code: 0, status_msg: '' } };
    expect(decode(`data: ${JSON.stringify(only)}\n\n`)[0]).toMatchObject({ object: 'chat.completion.chunk', choices: [{ delta: { role: 'assistant', content: 'All at once' }, finish_reason: 'stop' }] });
  });

  it('reads base_resp errors in answers and streams: a bad key 401, no balance insufficient_quota, rate limits 429', () => {
    const error = (status_code: number, status_msg = 'boom') => ({ id: '', base_resp: { status_code, status_msg } });
    expect(adaptor.answerError(error(1004, 'login fail: Please carry the API secret key in the Authorization field'))).toEqual({ status: 401, message: 'login fail: Please carry the API secret key in the Authorization field', code: 'minimax_1004' });
    expect(adaptor.answerError(error(1008, 'insufficient balance'))).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.answerError(error(1002))).toMatchObject({ status: 429 });
    expect(adaptor.answerError(error(2013))).toMatchObject({ status: 400, code: 'minimax_2013' });
    expect(adaptor.answerError(error(1026))).toMatchObject({ status: 400, code: 'content_filter' });
    expect(decode(`data: ${JSON.stringify(error(1004, 'invalid api key'))}\n\n`)).toEqual([{ error: { message: 'invalid api key', type: 'minimax_1004', code: 'minimax_1004', status: 401 } }]);
  });
});
