import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { DifyAdaptor } from './dify.adaptor';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string) => JSON.parse(fixture(name)) as JsonObject;
const adaptor = new DifyAdaptor();
const target = (stream: boolean, baseUrl = '') => ({ channel: { type: 37, baseUrl, other: '', keys: ['app-key'] }, key: 'app-key', endpoint: 'chat', upstreamModel: 'dify-app', stream }) as unknown as UpstreamTarget;

describe('DifyAdaptor', () => {
  it("calls the app's chat-messages API under the base URL, with the app key as a bearer token", () => {
    expect(adaptor.buildUrl(target(false))?.href).toBe('https://api.dify.ai/v1/chat-messages');
    expect(adaptor.buildUrl(target(false, 'http://dify.local/v1/'))?.href).toBe('http://dify.local/v1/chat-messages');
    expect(adaptor.buildUrl({ ...target(false), endpoint: 'embeddings' })).toBeUndefined();
    expect(adaptor.buildHeaders(target(false))).toEqual({ authorization: 'Bearer app-key' });
  });

  it("turns a conversation into one query (a transcript, the last user turn last), the client's user into Dify's, image URLs into files", async () => {
    expect(await adaptor.convertRequest(target(true), json('openai-chat.request.json'))).toEqual(json('dify.request.json'));
  });

  it('sends one user message as the query itself, blocking for a non-streaming client, as the stable default user', async () => {
    expect(await adaptor.convertRequest(target(false), { model: 'dify-app', messages: [{ role: 'user', content: 'hi' }] })).toEqual({ inputs: {}, query: 'hi', response_mode: 'blocking', user: 'api-gateway', auto_generate_name: false });
    const inline = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] };
    await expect(adaptor.convertRequest(target(false), inline)).rejects.toMatchObject({ status: 400 });
  });

  it('reads a blocking answer as an OpenAI completion named after the client’s model, billed from metadata.usage', () => {
    const answer = json('dify.response.json');
    expect(adaptor.toOpenAIResponse(answer, target(false))).toEqual(json('openai.response.json'));
    expect(adaptor.parseResponse(answer)).toMatchObject({ usage: { promptTokens: 1033, completionTokens: 128 }, text: 'iPhone 13 Pro Max specs are listed here:...' });
  });

  it('decodes the stream: message and agent_message text, message_end’s usage, the rest ignored', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target(true), usage);
    const bytes = Buffer.from(fixture('dify.stream.sse'));
    expect([...decoder.push(bytes.subarray(0, 120)), ...decoder.push(bytes.subarray(120)), ...decoder.end()]).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 1033, completionTokens: 135 });
  });

  it('reads error events: a bad key 401, an exhausted model quota insufficient_quota, others by their status', () => {
    expect(adaptor.answerError({ event: 'error', status: 401, code: 'unauthorized', message: 'Access token is invalid' })).toEqual({ status: 401, message: 'Access token is invalid', code: 'unauthorized' });
    expect(adaptor.answerError({ event: 'error', status: 400, code: 'provider_quota_exceeded', message: 'Your quota for Dify Hosted Model Provider has been exhausted.' })).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(adaptor.answerError({ event: 'error', status: 400, code: 'invalid_param', message: 'bad' })).toEqual({ status: 400, message: 'bad', code: 'invalid_param' });
    expect(adaptor.answerError(json('dify.response.json'))).toBeUndefined();
    const decoder = adaptor.createStreamDecoder(target(true), new UsageMeter());
    expect(decoder.push(Buffer.from('data: {"event":"error","status":400,"code":"completion_request_error","message":"model failed"}\n\n'))).toEqual([{ error: { message: 'model failed', type: 'completion_request_error', code: 'completion_request_error', status: 400 } }]);
  });
});
