import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import { RelayError } from '../../relay-error';
import type { RelayEndpoint } from '../../relay-endpoints';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { UsageMeter } from '../../wire/usage';
import { CohereAdaptor } from './cohere.adaptor';
import * as cohere from './cohere-content';

/** Golden fixtures of every Cohere v2 ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const MODEL = 'command-a-03-2025';

function decodeStream(name: string): { choices: unknown[]; usage: UsageMeter } {
  const usage = new UsageMeter();
  const chunks = new cohere.CohereChunkTranslator(MODEL, usage);
  const decoder = new SseJsonDecoder((event) => chunks.translate(event));
  const bytes = Buffer.from(fixture(name));
  // Split mid-event (and mid-character where there is one) to exercise the framing.
  const out = [...decoder.push(bytes.subarray(0, 333)), ...decoder.push(bytes.subarray(333)), ...decoder.end()];
  return { choices: out.map((chunk) => chunk.choices), usage };
}

describe('OpenAI chat → Cohere v2 chat', () => {
  it('converts system, image, an assistant tool call with its plan, the tool result, tools, tool_choice, sampling and stops', () => {
    expect(cohere.cohereChatFromOpenAI(json('openai-chat.request.json'), MODEL)).toEqual(json('cohere-chat.request.json'));
  });

  it('forces one named tool by offering only it, and maps JSON answers', () => {
    const body = {
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'a', parameters: { type: 'object' } } }, { type: 'function', function: { name: 'b', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'b' } },
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { n: { type: 'number' } } } } },
      max_completion_tokens: 50,
    };
    expect(cohere.cohereChatFromOpenAI(body, MODEL)).toMatchObject({
      tools: [{ type: 'function', function: { name: 'b' } }],
      tool_choice: 'REQUIRED',
      response_format: { type: 'json_object', json_schema: { type: 'object', properties: { n: { type: 'number' } } } },
      max_tokens: 50,
    });
    expect(cohere.cohereChatFromOpenAI({ messages: [], response_format: { type: 'json_object' }, tool_choice: 'auto' }, MODEL)).toEqual({ model: MODEL, messages: [], response_format: { type: 'json_object' } });
    // Words beside tool calls (a Claude client's history) go up as the plan; a plain assistant turn as content.
    const calls = [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } }];
    expect(cohere.cohereChatFromOpenAI({ messages: [{ role: 'assistant', content: 'Let me check.', tool_calls: calls }, { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }] }, MODEL).messages).toEqual([
      { role: 'assistant', tool_calls: calls, tool_plan: 'Let me check.' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });
});

describe('Cohere v2 chat → OpenAI', () => {
  it('reads a tool call answer: the plan as reasoning, the calls, finish tool_calls, billed units as usage', () => {
    expect({ ...cohere.openAIChatFromCohere(json('cohere-chat.response.json'), MODEL), created: 0 }).toEqual(json('openai-chat.response.json'));
  });

  it('reads a text answer with thinking', () => {
    expect({ ...cohere.openAIChatFromCohere(json('cohere-chat-text.response.json'), MODEL), created: 0 }).toEqual(json('openai-chat-text.response.json'));
  });

  it('decodes the tool call stream into OpenAI chunks, tool calls numbered as they start', () => {
    const { choices, usage } = decodeStream('cohere-chat.stream.sse');
    expect(choices).toEqual(json('openai-chat.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 37, completionTokens: 21 });
  });

  it('decodes the text stream, billed units as usage', () => {
    const { choices, usage } = decodeStream('cohere-chat-text.stream.sse');
    expect(choices).toEqual(json('openai-chat-text.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 5, completionTokens: 26 });
  });

  it("turns message-end's error into OpenAI's in-stream error", () => {
    const chunks = new cohere.CohereChunkTranslator(MODEL, new UsageMeter()).translate({ type: 'message-end', delta: { error: 'internal error', finish_reason: 'ERROR' } });
    expect(chunks).toEqual([{ error: { message: 'internal error', type: 'upstream_error', code: null } }]);
  });

  it('bills billed_units, and tokens only when no billed count is given', () => {
    expect(cohere.readCohereUsage({ billed_units: { input_tokens: 5, output_tokens: 26 }, tokens: { input_tokens: 71, output_tokens: 26 } })).toEqual({ promptTokens: 5, completionTokens: 26 });
    expect(cohere.readCohereUsage({ tokens: { input_tokens: 71, output_tokens: 26 } })).toEqual({ promptTokens: 71, completionTokens: 26 });
    expect(cohere.readCohereUsage({ billed_units: { search_units: 1 } })).toBeUndefined();
    // Rerank: search units are no tokens; input tokens when given (Xinference reports its output as the input again).
    expect(cohere.readRerankMeta({ billed_units: { search_units: 1 } })).toBeUndefined();
    expect(cohere.readRerankMeta({ tokens: { input_tokens: 24, output_tokens: 24 } })).toEqual({ promptTokens: 24, completionTokens: 0 });
  });

  it('reads the text of answers and events for local counting', () => {
    expect(cohere.readCohereAnswer(json('cohere-chat-text.response.json'))).toEqual({ usage: { promptTokens: 5, completionTokens: 26 }, text: 'Short answer.Sunny, 21 °C.' });
    expect(cohere.readCohereAnswer(json('cohere-chat.response.json')).text).toBe(`I will look up tomorrow's weather in Paris.{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\",\\"day\\":\\"tomorrow\\"}"}`);
    expect(cohere.readCohereAnswer({ type: 'content-delta', delta: { message: { content: { text: 'Hi' } } } })).toEqual({ text: 'Hi' });
    expect(cohere.readCohereAnswer(json('cohere-embed.response.json'))).toEqual({ usage: { promptTokens: 2, completionTokens: 0 }, text: '' });
  });
});

describe('embeddings and rerank', () => {
  it('converts an OpenAI embeddings request and the float vectors back', () => {
    expect(cohere.cohereEmbedFromOpenAI(json('openai-embeddings.request.json'), 'embed-v4.0')).toEqual(json('cohere-embed.request.json'));
    expect(cohere.cohereEmbedFromOpenAI({ input: 'one', input_type: 'search_query' }, 'embed-v4.0')).toMatchObject({ texts: ['one'], input_type: 'search_query' });
    expect(cohere.openAIEmbeddingsFromCohere(json('cohere-embed.response.json'), 'embed-v4.0')).toEqual(json('openai-embeddings.response.json'));
  });

  it('refuses token arrays, which Cohere cannot embed, as the request’s fault', () => {
    expect(() => cohere.cohereEmbedFromOpenAI({ input: [[1, 2, 3]] }, 'embed-v4.0')).toThrow(RelayError);
  });

  it('converts a rerank request (documents as strings) and puts the documents back into the results', () => {
    const request = json('rerank.request.json');
    expect(cohere.cohereRerankFromClient(request, 'rerank-v3.5')).toEqual(json('cohere-rerank.request.json'));
    expect(cohere.rerankAnswerFromCohere(json('cohere-rerank.response.json'), cohere.rerankDocumentTexts(request.documents))).toEqual(json('rerank.response.json'));
  });

  it('keeps each attempt’s documents apart, and returns none when the client turned them off', async () => {
    const adaptor = new CohereAdaptor();
    const channel = { type: CHANNEL_TYPE.COHERE, baseUrl: 'http://127.0.0.1:1/v2/' } as RelayChannel;
    const target = (endpoint: RelayEndpoint): UpstreamTarget => ({ channel, key: 'k', endpoint, upstreamModel: 'rerank-v3.5', stream: false });
    const withDocuments = target('rerank');
    const without = target('rerank');
    await adaptor.convertRequest(withDocuments, json('rerank.request.json'));
    await adaptor.convertRequest(without, { ...json('rerank.request.json'), return_documents: false });
    expect(adaptor.toOpenAIResponse(json('cohere-rerank.response.json'), withDocuments)).toEqual(json('rerank.response.json'));
    expect(adaptor.toOpenAIResponse(json('cohere-rerank.response.json'), without)).toEqual(json('cohere-rerank.response.json'));
    expect(adaptor.buildUrl(withDocuments)?.href).toBe('http://127.0.0.1:1/v2/rerank');
    expect(adaptor.buildUrl(target('embeddings'))?.href).toBe('http://127.0.0.1:1/v2/embed');
    expect(adaptor.buildUrl(target('images'))).toBeUndefined();
    expect(adaptor.modelsUrl(channel).href).toBe('http://127.0.0.1:1/v1/models?page_size=1000');
  });
});
