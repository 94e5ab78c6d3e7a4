import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import type { Session } from './support/accounts';
import { CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { CAT_PNG, GEMINI_REPLY_TEXT } from './support/mock-gemini';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { serviceAccountKey, VERTEX_ACCESS_TOKEN, vertexReply } from './support/mock-vertex';
import { startNativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

const PNG_BASE64 = CAT_PNG.toString('base64');
const WEATHER = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const CLAUDE_PATH = '/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-test';
const GEMINI_PATH = '/v1/projects/mock-project/locations/us-east5/publishers/google/models/gemini-test';

const PRICES = {
  ModelRatio: { 'gemini-test': 1, 'claude-test': 1 },
  CompletionRatio: { 'gemini-test': 2, 'claude-test': 5 },
  CacheRatio: { 'gemini-test': 0.25, 'claude-test': 0.1 },
  CreateCacheRatio: { 'claude-test': 1.25 },
};

describe('relay: Vertex AI channels (type 41)', () => {
  let vertex: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number; apiKey: string };
  let openai: OpenAI;
  let anthropic: Anthropic;
  let genai: GoogleGenAI;
  let root: Session;
  let channelId: number;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    let app: TestApp;
    ({ app, native: vertex, seed, token, openai, root, stop } = await startNativeRelayTestbed(PRICES));
    channelId = await seed.createChannel({ name: 'vertex', type: 41, base_url: vertex.url, other: 'us-east5', models: 'gemini-test,claude-test', test_model: 'claude-test', key: serviceAccountKey(`${vertex.url}/token`) });
    anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: token.apiKey, httpOptions: { baseUrl: app.baseUrl } });
  });
  const calls = () => vertex.requests.filter((request) => request.path !== '/token');
  afterAll(() => stop());
  beforeEach(() => {
    vertex.reset();
    vertex.handler = vertexReply;
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('exchanges a signed JWT for an access token once, and calls Gemini models with it', async () => {
    const first = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(first.choices[0].message.content).toBe(GEMINI_REPLY_TEXT);
    const stream = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0].delta.content ?? '';
    expect(text).toBe(GEMINI_REPLY_TEXT);

    expect(vertex.requests.filter((request) => request.path === '/token')).toHaveLength(1);
    const calls = vertex.requests.filter((request) => request.path !== '/token');
    expect(calls.map((request) => request.path)).toEqual([
      '/v1/projects/mock-project/locations/us-east5/publishers/google/models/gemini-test:generateContent',
      '/v1/projects/mock-project/locations/us-east5/publishers/google/models/gemini-test:streamGenerateContent?alt=sse',
    ]);
    expect(calls.every((request) => request.headers.authorization === `Bearer ${VERTEX_ACCESS_TOKEN}`)).toBe(true);
    expect(await lastLog()).toMatchObject({ quota: 45, prompt_tokens: 30, completion_tokens: 15 });
  });

  it('calls Claude models through rawPredict with the Vertex anthropic_version, billing the cache', async () => {
    const answer = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
    const sent = vertex.requests.find((request) => request.path.endsWith(':rawPredict'))!;
    expect(sent.path).toBe('/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-test:rawPredict');
    expect(sent.body).toEqual({ anthropic_version: 'vertex-2023-10-16', system: 'Be brief.', max_tokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect(await lastLog()).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });

    const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0].delta.content ?? '';
    expect(text).toBe(CLAUDE_REPLY_TEXT);
    expect(vertex.requests.some((request) => request.path.endsWith(':streamRawPredict'))).toBe(true);
  });

  it('converts tools and images for Gemini and Claude models, and reports usage to the OpenAI client only when asked', async () => {
    const image = { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${PNG_BASE64}` } };
    const gemini = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, image] }], tools: [WEATHER], tool_choice: 'required' });
    expect(gemini.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    expect(calls()[0].body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'What is it?' }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] }], toolConfig: { functionCallingConfig: { mode: 'ANY' } } });

    const claude = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, image] }], tools: [WEATHER], tool_choice: 'required' });
    expect(claude.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ id: 'toolu_mock', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    expect(calls()[1].body).toMatchObject({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }] }], tool_choice: { type: 'any' } });

    const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    const usages = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 2600, completion_tokens: 40, prompt_tokens_details: expect.objectContaining({ cached_tokens: 2000 }) })]);
    expect(await lastLog()).toMatchObject({ quota: 1125 });
  });

  describe('native clients (their bodies passed through, not converted)', () => {
    it('sends the Anthropic client’s Messages body to rawPredict with Vertex’s anthropic_version, and bills the cache', async () => {
      const message = await anthropic.messages.create({
        model: 'claude-test',
        max_tokens: 200,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }] }],
      });
      expect(message).toMatchObject({ content: [{ type: 'text', text: CLAUDE_REPLY_TEXT }], usage: { input_tokens: 100, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 40 } });
      expect(calls()[0].path).toBe(`${CLAUDE_PATH}:rawPredict`);
      expect(calls()[0].body).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 200,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }] }],
      });
      const log = await lastLog();
      expect(log).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });
      expect(log.other).toMatchObject({ claude: true, cache_tokens: 2000, cache_creation_tokens: 500 });
    });

    it('streams Claude’s events from streamRawPredict as they came, and passes tools', async () => {
      // Claude Code sends its effort in output_config, with the effort beta.
      const effort = { output_config: { effort: 'high' } } as Record<string, unknown>;
      const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...effort }, { headers: { 'anthropic-beta': 'context-1m-2025-08-07,effort-2025-11-24' } });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(text).toBe(CLAUDE_REPLY_TEXT);
      expect(final.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 40 });
      // Vertex takes the 1M context beta and refuses effort (the catalogue's acceptedAnthropicBetas): effort is not sent, nor its field.
      expect(calls()[0]).toMatchObject({ path: `${CLAUDE_PATH}:streamRawPredict`, body: { anthropic_version: 'vertex-2023-10-16', stream: true }, headers: { 'anthropic-beta': 'context-1m-2025-08-07' } });
      expect(calls()[0].body).not.toHaveProperty('output_config');
      expect(await lastLog()).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });

      const tool = { name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
      const toolUse = await anthropic.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools: [tool], tool_choice: { type: 'tool', name: 'get_weather' } }).finalMessage();
      expect(toolUse.content).toEqual([{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }]);
    });

    it('sends the Google client’s body to a Gemini model as it is, streaming too, and bills cache and thoughts', async () => {
      const result = await genai.models.generateContent({ model: 'gemini-test', contents: 'hi', config: { systemInstruction: 'Be brief.' } });
      expect(result.text).toBe(GEMINI_REPLY_TEXT);
      expect(calls()[0].path).toBe(`${GEMINI_PATH}:generateContent`);
      expect(calls()[0].body).toEqual({ contents: [{ parts: [{ text: 'hi' }], role: 'user' }], systemInstruction: { parts: [{ text: 'Be brief.' }], role: 'user' }, generationConfig: {} });
      expect(await lastLog()).toMatchObject({ quota: 45, prompt_tokens: 30, completion_tokens: 15 });

      let text = '';
      for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-test', contents: 'hi' })) text += chunk.text ?? '';
      expect(text).toBe(GEMINI_REPLY_TEXT);
      expect(calls()[1].path).toBe(`${GEMINI_PATH}:streamGenerateContent?alt=sse`);
      expect(await lastLog()).toMatchObject({ quota: 45, prompt_tokens: 30, completion_tokens: 15 });
    });
  });

  it('tests the channel through its token, and answers the models Vertex is known to serve', async () => {
    expect((await root.get(`/api/channel/test/${channelId}`).expect(200)).body).toMatchObject({ success: true });
    expect(calls()[0]).toMatchObject({ path: `${CLAUDE_PATH}:rawPredict`, body: { max_tokens: 16 } });
    const listed = (await root.get(`/api/channel/fetch_models/${channelId}`).expect(200)).body;
    expect(listed.message).toMatch(/no model-list API|没有模型列表接口/);
    expect(listed.data).toEqual(expect.arrayContaining(['gemini-2.5-pro', 'claude-sonnet-4-5@20250929']));
    expect(JSON.stringify(listed)).not.toContain('PRIVATE KEY');

    const malformed = await seed.createChannel({ name: 'vertex-bad', type: 41, base_url: vertex.url, models: 'gemini-test', key: '{"type": "service_account"}' });
    expect((await root.get(`/api/channel/test/${malformed}`).set('Accept-Language', 'en').expect(200)).body).toMatchObject({ success: false, message: expect.stringContaining('client_email, private_key or project_id') });
  });
});
