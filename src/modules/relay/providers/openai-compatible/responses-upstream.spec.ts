import { readFileSync } from 'node:fs';
import path from 'node:path';
import { channelTypeRow, CHANNEL_TYPE, type ChannelTypeRow } from '../../../channels/channel-types';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { takesClientFormat } from '../adaptor';
import { UsageMeter } from '../../wire/usage';
import { OpenAICompatibleAdaptor } from './openai-compatible.adaptor';
import { chatCompletionFromResponse, createResponsesEventDecoder, responsesRequestFromChat } from './responses-upstream';

/** Golden fixtures of chats served by a model that answers only on Responses: request, answer and stream, without the app. */
const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, 'fixtures', name));
const json = <T = JsonObject>(name: string): T => JSON.parse(fixture(name).toString('utf8')) as T;
const MODEL = 'o1-pro-2025-03-19';

describe('chats for models that answer only on Responses', () => {
  it('converts a chat into a Responses request: system as instructions, images, tool calls and outputs as items, nothing stored', () => {
    expect(responsesRequestFromChat(json('chat.request.json'), MODEL)).toEqual(json('responses-from-chat.request.json'));
  });

  it('converts a Response into a chat completion: reasoning summary, text, tool calls, usage', () => {
    expect(chatCompletionFromResponse(json('responses.response.json'), MODEL)).toEqual(json('chat-from-responses.response.json'));
  });

  it('decodes Responses’ typed events into chat chunks, collecting the usage of response.completed', () => {
    const usage = new UsageMeter();
    const decoder = createResponsesEventDecoder(MODEL, usage);
    const chunks = [...decoder.push(fixture('responses.stream.sse')), ...decoder.end()];
    expect(chunks).toEqual(json('chat-from-responses.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 40, completionTokens: 9, reasoningTokens: 2 });
  });

  it('turns response.failed into the in-stream error chunk', () => {
    const decoder = createResponsesEventDecoder(MODEL, new UsageMeter());
    const failed = 'data: {"type":"response.failed","response":{"error":{"code":"server_error","message":"Boom"}}}\n\n';
    expect(decoder.push(Buffer.from(failed))).toEqual([{ error: { message: 'Boom', type: 'server_error', code: null } }]);
  });

  describe('which channels say so', () => {
    const openai = new OpenAICompatibleAdaptor(channelTypeRow(CHANNEL_TYPE.OPENAI) as ChannelTypeRow);
    const deepseek = new OpenAICompatibleAdaptor(channelTypeRow(CHANNEL_TYPE.DEEPSEEK) as ChannelTypeRow);
    const target = (upstreamModel: string, setting: JsonObject = {}, endpoint = 'chat'): UpstreamTarget =>
      ({ channel: { baseUrl: 'http://127.0.0.1:9', other: '', setting }, key: 'sk', endpoint, upstreamModel, stream: false }) as unknown as UpstreamTarget;

    it('OpenAI’s Responses-only models by name, and any model of a channel marked responses_only', () => {
      expect(openai.answersOnlyOnResponses(target('o1-pro'))).toBe(true);
      expect(openai.answersOnlyOnResponses(target('gpt-5-codex'))).toBe(true);
      expect(openai.answersOnlyOnResponses(target('gpt-4o'))).toBe(false);
      expect(openai.answersOnlyOnResponses(target('o1-pro', {}, 'embeddings'))).toBe(false);
      expect(deepseek.answersOnlyOnResponses(target('o1-pro'))).toBe(false);
      expect(deepseek.answersOnlyOnResponses(target('my-model', { responses_only: true }))).toBe(true);
      expect(takesClientFormat(openai, target('o1-pro'), 'openai')).toBe(false);
      expect(takesClientFormat(openai, target('gpt-4o'), 'openai')).toBe(true);
      expect(openai.buildUrl(target('o1-pro'))?.href).toBe('http://127.0.0.1:9/v1/responses');
      expect(deepseek.buildUrl(target('my-model', { responses_only: true }))?.href).toBe('http://127.0.0.1:9/v1/responses');
    });

    it('Responses pass through where the row offers them, unless the channel serves chat only', () => {
      expect(takesClientFormat(openai, target('gpt-4o', {}, 'responses'), 'responses')).toBe(true);
      expect(takesClientFormat(openai, target('gpt-4o', { responses_via_chat: true }, 'responses'), 'responses')).toBe(false);
      expect(takesClientFormat(deepseek, target('deepseek-chat', {}, 'responses'), 'responses')).toBe(false);
      expect(takesClientFormat(deepseek, target('x', { responses_only: true }, 'responses'), 'responses')).toBe(true);
    });
  });
});
