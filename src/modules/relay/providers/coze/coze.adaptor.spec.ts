import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../../../config/app-config';
import type { UpstreamClientService } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { CozeAdaptor } from './coze.adaptor';
import { collectCozeStream } from './coze-wire';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string) => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new CozeAdaptor({} as UpstreamClientService, { relay: { maxResponseBodyBytes: 1 << 20 } } as AppConfig);
const target = (stream: boolean, baseUrl = '') => ({ channel: { type: 49, baseUrl, other: '', keys: ['pat_key'] }, key: 'pat_key', endpoint: 'chat', upstreamModel: '7379462189365198898', stream }) as unknown as UpstreamTarget;

/** A Coze stream of events, as Coze frames them. */
const sse = (events: Array<[string, unknown]>) => events.map(([event, data]) => `event:${event}\ndata:${JSON.stringify(data)}\n\n`).join('');

describe('CozeAdaptor', () => {
  it('calls v3 chat under the base URL, with the personal access token as a bearer token', () => {
    expect(adaptor.buildUrl(target(true))?.href).toBe('https://api.coze.cn/v3/chat');
    expect(adaptor.buildUrl(target(true, 'https://api.coze.com/v3/'))?.href).toBe('https://api.coze.com/v3/chat');
    expect(adaptor.buildHeaders(target(true))).toEqual({ authorization: 'Bearer pat_key' });
  });

  it('sends the bot (the model name) a streamed, unsaved chat of the user and assistant turns, images as object_string', async () => {
    expect(await adaptor.convertRequest(target(false), json('openai-chat.request.json'))).toEqual(json('coze.request.json'));
    expect(await adaptor.convertRequest(target(false), { messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({ user_id: 'api-gateway', stream: true });
    await expect(adaptor.convertRequest(target(false), { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] }] })).rejects.toMatchObject({ status: 400 });
  });

  it('decodes the stream: answer deltas (reasoning too), the completed message not again, follow-ups left out, usage at the end', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target(true), usage);
    const bytes = Buffer.from(fixture('coze.stream.sse'));
    expect([...decoder.push(bytes.subarray(0, 333)), ...decoder.push(bytes.subarray(333)), ...decoder.end()]).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 614, completionTokens: 19 });
  });

  it('collects a whole stream into one answer for a non-streaming client, read back as an OpenAI completion', () => {
    const collected = collectCozeStream(Buffer.from(fixture('coze.stream.sse')));
    expect(collected).toEqual(json('coze.collected.json'));
    expect(adaptor.answerError(collected)).toBeUndefined();
    expect(adaptor.toOpenAIResponse(collected, target(false))).toEqual(json('openai.response.json'));
    expect(adaptor.parseResponse(collected)).toMatchObject({ usage: { promptTokens: 614, completionTokens: 19 }, text: 'It is a cat.A cat picture.' });
  });

  it('reads {code, msg} errors: in a 200 answer, a failed chat and an error event; a bad token 401', () => {
    expect(adaptor.answerError({ code: 4100, msg: 'authentication is invalid' })).toEqual({ status: 401, message: 'authentication is invalid', code: 'coze_4100' });
    expect(adaptor.answerError({ code: 4028, msg: 'quota used up' })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.answerError({ code: 4013, msg: 'too fast' })).toMatchObject({ status: 429 });
    const failed = sse([['conversation.chat.failed', { id: '1', status: 'failed', last_error: { code: 4101, msg: 'no permission' } }]]);
    expect(collectCozeStream(Buffer.from(failed))).toEqual({ code: 4101, msg: 'no permission' });
    const decoder = adaptor.createStreamDecoder(target(true), new UsageMeter());
    expect(decoder.push(Buffer.from(sse([['error', { code: 4000, msg: 'bad request' }]])))).toEqual([{ error: { message: 'bad request', type: 'coze_4000', code: 'coze_4000', status: 400 } }]);
  });
});
