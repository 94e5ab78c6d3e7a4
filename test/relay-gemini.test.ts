import Anthropic from '@anthropic-ai/sdk';
import { FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import type { Session } from './support/accounts';
import { CAT_PNG, GEMINI_REPLY_TEXT, geminiJsonArrayReply, geminiReply } from './support/mock-gemini';
import { MOCK_REPLY_TEXT, MockUpstream, chatCompletion } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. A mock Gemini answer reports 30
 * prompt tokens (20 of them cached) and 10 + 5 thinking output tokens:
 * (30 − 20) + 20 × 0.25 + 15 × 2 = 45 quota.
 */
const GEMINI_QUOTA = 45;
const PRICES = {
  ModelRatio: { 'gemini-test': 1, 'gpt-test': 1, 'gemini-embed': 1 },
  CompletionRatio: { 'gemini-test': 2 },
  CacheRatio: { 'gemini-test': 0.25 },
};
const WEATHER = { name: 'get_weather', description: 'Weather for a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } };

describe('relay: Gemini channels (type 24) and the Gemini endpoints', () => {
  let app: TestApp;
  let gemini: MockUpstream;
  let openaiUpstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let genai: GoogleGenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, native: gemini, openaiUpstream, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'gemini', type: 24, base_url: gemini.url, models: 'gemini-test,gemini-embed', key: 'AIza-upstream-secret-key' });
    genai = new GoogleGenAI({ apiKey: token.apiKey, httpOptions: { baseUrl: app.baseUrl } });
  });
  afterAll(() => stop());
  beforeEach(async () => {
    gemini.reset();
    gemini.handler = geminiReply;
    openaiUpstream.reset();
    // Requests billed by our own token count settle a little later (the count runs in a worker): write them before the next test's.
    await seed.flush();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  describe('the OpenAI client through a Gemini channel (converted)', () => {
    it('converts a chat with a system prompt and images (inline and fetched), keeps the key out of the URL, and bills cache and thoughts exactly', async () => {
      const answer = await openai.chat.completions.create({
        model: 'gemini-test',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `${gemini.url}/cat.png` } }] },
        ],
        max_tokens: 200,
      });
      expect(answer.choices[0].message.content).toBe(GEMINI_REPLY_TEXT);
      expect(answer.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 15, prompt_tokens_details: { cached_tokens: 20 }, completion_tokens_details: { reasoning_tokens: 5 } });

      const sent = gemini.requests.find((request) => request.path.includes(':generateContent'))!;
      expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
      expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream-secret-key');
      expect(sent.body).toMatchObject({
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: CAT_PNG.toString('base64') } }] }],
        generationConfig: { maxOutputTokens: 200 },
      });
      expect(sent.body.safetySettings).toContainEqual({ category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' });

      const log = await lastLog();
      expect(log).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });
      expect(log.other).toMatchObject({ cache_tokens: 20, reasoning_tokens: 5 });
    });

    it('streams as OpenAI chunks with the usage chunk only when asked', async () => {
      const stream = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let reasoning = '';
      const usages = [];
      for await (const chunk of stream) {
        if (chunk.usage) usages.push(chunk.usage);
        const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
        text += delta?.content ?? '';
        reasoning += delta?.reasoning_content ?? '';
      }
      expect({ text, reasoning }).toEqual({ text: GEMINI_REPLY_TEXT, reasoning: 'Let me think.' });
      expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 30, completion_tokens: 15 })]);
      expect(gemini.requests[0].path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA });
    });

    it('converts tools into function declarations and the function call back', async () => {
      const answer = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'Weather?' }], tools: [{ type: 'function', function: WEATHER }], tool_choice: 'required' });
      expect(gemini.requests[0].body).toMatchObject({ tools: [{ functionDeclarations: [WEATHER] }], toolConfig: { functionCallingConfig: { mode: 'ANY' } } });
      expect(answer.choices[0].finish_reason).toBe('tool_calls');
      expect(answer.choices[0].message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    });

    it('embeds through batchEmbedContents', async () => {
      // The SDK asks for base64 and decodes it; floats on request stay floats.
      const result = await openai.embeddings.create({ model: 'gemini-embed', input: ['one', 'two'] });
      expect(result.data.map((entry) => entry.embedding)).toEqual([[0, 0.5, 0.25], [1, 0.5, 0.25]]);
      const floats = await openai.embeddings.create({ model: 'gemini-embed', input: 'one', encoding_format: 'float' });
      expect(floats.data[0].embedding).toEqual([0, 0.5, 0.25]);
      expect(gemini.requests[0].path).toBe('/v1beta/models/gemini-embed:batchEmbedContents');
      expect(gemini.requests[0].body).toEqual({ requests: [{ model: 'models/gemini-embed', content: { parts: [{ text: 'one' }] } }, { model: 'models/gemini-embed', content: { parts: [{ text: 'two' }] } }] });
    });
  });

  it('tests a Gemini channel and fetches its models', async () => {
    const id = await seed.createChannel({ name: 'gemini-probe', type: 24, base_url: gemini.url, models: 'gemini-probe', test_model: 'gemini-probe', key: 'AIza-probe' });
    expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
    expect(gemini.requests[0].path).toBe('/v1beta/models/gemini-probe:generateContent');
    expect((await root.get(`/api/channel/fetch_models/${id}`).expect(200)).body.data).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro']);
    // As typed in the editor for a new channel: the key goes in the header, never the URL.
    expect((await root.post('/api/channel/fetch_models').send({ type: 24, key: 'AIza-typed', base_url: gemini.url }).expect(200)).body.data).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro']);
    const listed = gemini.requests[gemini.requests.length - 1];
    expect(listed.headers['x-goog-api-key']).toBe('AIza-typed');
    expect(listed.path).not.toContain('AIza');
  });

  describe('the Google client on the Gemini endpoints', () => {
    it('passes a Gemini request through to a Gemini channel and bills its usage', async () => {
      const result = await genai.models.generateContent({ model: 'gemini-test', contents: 'hi', config: { systemInstruction: 'Be brief.' } });
      expect(result.text).toBe(GEMINI_REPLY_TEXT);
      expect(result.usageMetadata).toMatchObject({ promptTokenCount: 30, thoughtsTokenCount: 5 });
      const sent = gemini.requests[0];
      expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
      // Passed through as the client sent it: no safety settings or fields of ours added.
      expect(sent.body).toEqual({ contents: [{ parts: [{ text: 'hi' }], role: 'user' }], systemInstruction: { parts: [{ text: 'Be brief.' }], role: 'user' }, generationConfig: {} });
      expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream-secret-key');
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });

      let text = '';
      for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-test', contents: 'hi' })) text += chunk.text ?? '';
      expect(text).toBe(GEMINI_REPLY_TEXT);
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA });
    });

    it('passes an image and tools through to a Gemini channel, and the function call back', async () => {
      const image = { inlineData: { mimeType: 'image/png', data: CAT_PNG.toString('base64') } };
      const called = await genai.models.generateContent({
        model: 'gemini-test',
        contents: [{ role: 'user', parts: [{ text: 'Weather where this was taken?' }, image] }],
        config: { tools: [{ functionDeclarations: [WEATHER] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
      });
      expect(called.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
      expect(gemini.requests[0].body).toMatchObject({ contents: [{ parts: [{ text: 'Weather where this was taken?' }, image] }], tools: [{ functionDeclarations: [WEATHER] }] });
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA });
    });

    it('converts for an OpenAI channel: text, image, stream and tools', async () => {
      const result = await genai.models.generateContent({
        model: 'gpt-test',
        contents: [{ role: 'user', parts: [{ text: 'What is it?' }, { inlineData: { mimeType: 'image/png', data: CAT_PNG.toString('base64') } }] }],
        config: { maxOutputTokens: 50 },
      });
      expect(result.text).toBe(MOCK_REPLY_TEXT);
      expect(result.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 7 });
      expect(openaiUpstream.requests[0].body).toEqual({
        model: 'gpt-test',
        max_tokens: 50,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${CAT_PNG.toString('base64')}` } }] }],
      });
      expect(await lastLog()).toMatchObject({ quota: 19, prompt_tokens: 12, completion_tokens: 7 });

      let text = '';
      for await (const chunk of await genai.models.generateContentStream({ model: 'gpt-test', contents: 'hi' })) text += chunk.text ?? '';
      expect(text).toBe(MOCK_REPLY_TEXT);
      expect(openaiUpstream.requests[1].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

      openaiUpstream.handler = (request) => ({
        status: 200,
        json: { ...chatCompletion(String(request.body.model), ''), choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }] },
      });
      const called = await genai.models.generateContent({
        model: 'gpt-test',
        contents: 'Weather?',
        config: { tools: [{ functionDeclarations: [WEATHER] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_weather'] } } },
      });
      expect(openaiUpstream.requests[2].body).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather' } }], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
      expect(called.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    });

    it('streams an answer that is only a function call, from a converted stream, and bills it', async () => {
      const base = { id: 'chatcmpl-tool', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-test' };
      openaiUpstream.handler = () => ({
        sse: [
          JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }] }),
          JSON.stringify({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, finish_reason: null }] }),
          JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
          JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 } }),
          '[DONE]',
        ],
      });
      const config = { tools: [{ functionDeclarations: [WEATHER] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } };
      const calls = [];
      let usage;
      for await (const chunk of await genai.models.generateContentStream({ model: 'gpt-test', contents: 'Weather?', config })) {
        calls.push(...(chunk.functionCalls ?? []));
        usage = chunk.usageMetadata ?? usage;
      }
      expect(calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
      expect(usage).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 7 });
      expect(openaiUpstream.requests).toHaveLength(1);
      expect(await lastLog()).toMatchObject({ quota: 19 });
    });

    it("answers errors in Google's shape, and never shows the channel key or the caller's key", async () => {
      const stranger = new GoogleGenAI({ apiKey: 'sk-not-a-real-key', httpOptions: { baseUrl: app.baseUrl } });
      const refused = await stranger.models.generateContent({ model: 'gemini-test', contents: 'hi' }).catch((error: unknown) => error);
      expect((refused as { status?: number }).status).toBe(401);
      expect(String((refused as Error).message)).toContain('UNAUTHENTICATED');

      gemini.handler = () => ({ status: 400, json: { error: { code: 400, message: `API key AIza-upstream-secret-key not valid at ${gemini.url}/v1beta/models?key=AIza-upstream-secret-key`, status: 'INVALID_ARGUMENT' } } });
      const response = await fetch(`${app.baseUrl}/v1beta/models/gemini-test:generateContent?key=${token.apiKey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }) });
      const text = await response.text();
      expect(response.status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      expect(text).not.toContain('AIza-upstream-secret-key');
      expect(text).not.toContain(token.key);
      expect(gemini.requests.every((request) => !request.path.includes('key='))).toBe(true);

      // An answer that is JSON but not Gemini's shape is the channel's fault (502), not the gateway's (500).
      gemini.handler = () => ({ status: 200, json: { candidates: [null] } });
      const malformed = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(malformed).toMatchObject({ status: 502, code: 'upstream_bad_response' });

      // Paths of Google's API the gateway does not serve answer in Google's shape too, which the SDK reads.
      const counted = await genai.models.countTokens({ model: 'gemini-test', contents: 'hi' }).catch((error: unknown) => error);
      expect((counted as { status?: number }).status).toBe(404);
      expect(String((counted as Error).message)).toContain('NOT_FOUND');
    });
  });

  it('converts the Anthropic client’s Messages for a Gemini channel: text, thinking, stream and tools, billed from Gemini’s usage', async () => {
    const anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'gemini-test', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([{ type: 'thinking', thinking: 'Let me think.', signature: '' }, { type: 'text', text: GEMINI_REPLY_TEXT }]);
    expect(message.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 20, output_tokens: 15 });
    expect(gemini.requests[0].body).toMatchObject({ systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 100 } });
    expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });

    const stream = anthropic.messages.stream({ model: 'gemini-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe(GEMINI_REPLY_TEXT);
    expect(final.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 20, output_tokens: 15 });
    expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA });

    const tool = { name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
    const toolUse = await anthropic.messages.create({ model: 'gemini-test', max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools: [tool], tool_choice: { type: 'any' } });
    expect(toolUse).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } }] });
  });

  describe("Gemini's JSON-array streams (streamGenerateContent without alt=sse)", () => {
    interface GeminiElement {
      candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
      usageMetadata?: Record<string, number>;
    }
    /** A stream asked for as Google's REST clients ask without alt=sse: the answer must be one JSON array. */
    async function jsonArrayStream(model: string): Promise<{ type: string; elements: GeminiElement[] }> {
      const response = await fetch(`${app.baseUrl}/v1beta/models/${model}:streamGenerateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': token.apiKey },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      expect(response.status).toBe(200);
      return { type: String(response.headers.get('content-type')), elements: JSON.parse(await response.text()) as GeminiElement[] };
    }
    const textOf = (elements: GeminiElement[]) =>
      elements
        .flatMap((element) => element.candidates?.[0]?.content?.parts ?? [])
        .filter((part) => !part.thought)
        .map((part) => part.text ?? '')
        .join('');

    it('answers a Gemini channel’s stream as a JSON array, billed from its usage', async () => {
      const { type, elements } = await jsonArrayStream('gemini-test');
      expect(type).toContain('application/json');
      expect(textOf(elements)).toBe(GEMINI_REPLY_TEXT);
      expect(elements[elements.length - 1].usageMetadata).toMatchObject({ promptTokenCount: 30, thoughtsTokenCount: 5 });
      expect(gemini.requests[0].path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
      const log = await lastLog();
      expect(log).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });
      expect(JSON.stringify(log)).not.toContain(token.key);
      expect(JSON.stringify(log)).not.toContain('AIza-upstream-secret-key');
    });

    it('answers a converted stream (OpenAI channel) as a JSON array too', async () => {
      const { elements } = await jsonArrayStream('gpt-test');
      expect(textOf(elements)).toBe(MOCK_REPLY_TEXT);
      expect(elements[elements.length - 1]).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7 } });
      expect(await lastLog()).toMatchObject({ quota: 19 });
    });

    it('reads an upstream that answers a stream as a JSON array, for SSE, OpenAI and JSON-array clients alike', async () => {
      gemini.handler = geminiJsonArrayReply;
      let text = '';
      for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-test', contents: 'hi' })) text += chunk.text ?? '';
      expect(text).toBe(GEMINI_REPLY_TEXT);
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA, prompt_tokens: 30, completion_tokens: 15 });

      const stream = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let converted = '';
      const usages = [];
      for await (const chunk of stream) {
        converted += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usages.push(chunk.usage);
      }
      expect(converted).toBe(GEMINI_REPLY_TEXT);
      expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 30, completion_tokens: 15 })]);

      const { elements } = await jsonArrayStream('gemini-test');
      expect(textOf(elements)).toBe(GEMINI_REPLY_TEXT);
      expect(await lastLog()).toMatchObject({ quota: GEMINI_QUOTA });
    });
  });
});
