import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Session } from './support/accounts';
import type { TestApp } from './support/test-app';
import { CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { BEDROCK_KEY, bedrockReply } from './support/mock-bedrock';
import { CAT_PNG, geminiReply } from './support/mock-gemini';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

/** The mock reports Claude's usage: 100 + 2000 × 0.1 + 500 × 1.25 + 40 × 5 = 1125 quota. */
const QUOTA = 1125;
const PRICES = {
  ModelRatio: { 'claude-bedrock': 1 },
  CompletionRatio: { 'claude-bedrock': 5 },
  CacheRatio: { 'claude-bedrock': 0.1 },
  CreateCacheRatio: { 'claude-bedrock': 1.25 },
};
const MODEL_ID = 'anthropic.claude-sonnet-4-5-v1:0';
const WEATHER_TOOL = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('relay: AWS Bedrock Claude channels (type 33)', () => {
  let bedrock: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number; apiKey: string };
  let openai: OpenAI;
  let anthropic: Anthropic;
  let root: Session;
  let channelId: number;
  let stop: () => Promise<void>;
  const key = `${BEDROCK_KEY.accessKeyId}|${BEDROCK_KEY.secretAccessKey}|${BEDROCK_KEY.region}`;

  beforeAll(async () => {
    let app: TestApp;
    ({ app, native: bedrock, seed, token, openai, root, stop } = await startNativeRelayTestbed(PRICES));
    channelId = await seed.createChannel({ name: 'bedrock', type: 33, base_url: bedrock.url, models: 'claude-bedrock', key, model_mapping: JSON.stringify({ 'claude-bedrock': MODEL_ID }), test_model: 'claude-bedrock' });
    anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
  });
  afterAll(() => stop());
  beforeEach(() => {
    bedrock.reset();
    bedrock.handler = bedrockReply;
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('signs with SigV4 and invokes the model with a Claude body, billing cache reads and writes', async () => {
    const answer = await openai.chat.completions.create({
      model: 'claude-bedrock',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
      // OpenAI's user would become Claude's metadata, which Bedrock refuses.
      user: 'user-1',
    });
    expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
    const sent = bedrock.requests[0];
    expect(sent.path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke`);
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKACCESSKEY\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=/);
    expect(sent.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      system: 'Be brief.',
      max_tokens: 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
    });
    expect(await lastLog()).toMatchObject({ quota: QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
  });

  it('fetches a linked image and sends it inline, since Bedrock takes no image URLs', async () => {
    bedrock.handler = (request) => (request.path === '/cat.png' ? geminiReply(request) : bedrockReply(request));
    await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: `${bedrock.url}/cat.png` } }] }] });
    const sent = bedrock.requests.find((request) => request.path.includes('/invoke'))!;
    expect(sent.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: CAT_PNG.toString('base64') } }] }]);
  });

  it('decodes the binary event stream into OpenAI chunks', async () => {
    const stream = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe(CLAUDE_REPLY_TEXT);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 2600, completion_tokens: 40 })]);
    expect(bedrock.requests[0].path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke-with-response-stream`);
    expect(await lastLog()).toMatchObject({ quota: QUOTA });
  });

  it('fails over as a channel fault when AWS refuses the signature, without revealing the key', async () => {
    bedrock.handler = () => ({ status: 403, json: { message: `The security token included in the request is invalid: ${BEDROCK_KEY.secretAccessKey}` } });
    const error = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.APIError>).error)).not.toContain(BEDROCK_KEY.secretAccessKey);
  });

  it('answers tool calls converted for the OpenAI client, streamed too', async () => {
    const tool = { type: 'function' as const, function: { name: WEATHER_TOOL.name, parameters: WEATHER_TOOL.input_schema } };
    const answer = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'Weather?' }], tools: [tool], tool_choice: 'required' });
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ id: 'toolu_mock', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    expect(bedrock.requests[0].body).toMatchObject({ tool_choice: { type: 'any' } });

    const stream = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'Weather?' }], tools: [tool], tool_choice: 'required', stream: true });
    let args = '';
    for await (const chunk of stream) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });

  describe('the Anthropic client on /v1/messages (Messages body passed through, not converted)', () => {
    it('sends the Messages body with Bedrock’s anthropic_version, the model in the path, and bills the upstream usage with the cache', async () => {
      const message = await anthropic.messages.create({
        model: 'claude-bedrock',
        max_tokens: 300,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }] }],
        stop_sequences: ['END'],
        // Claude Code sends metadata; Bedrock refuses it.
        metadata: { user_id: 'user-1' },
      }, { headers: { 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14' } });
      expect(message).toMatchObject({ type: 'message', content: [{ type: 'text', text: CLAUDE_REPLY_TEXT }], usage: { input_tokens: 100, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 40 } });
      const sent = bedrock.requests[0];
      expect(sent.path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke`);
      // Claude's own fields (cache_control, stop_sequences, the system blocks) arrive as the client wrote them.
      expect(sent.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        // Bedrock takes interleaved thinking, and would refuse Claude Code's own beta: it is not sent.
        anthropic_beta: ['interleaved-thinking-2025-05-14'],
        max_tokens: 300,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }] }],
        stop_sequences: ['END'],
      });
      const log = await lastLog();
      expect(log).toMatchObject({ quota: QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
      expect(log.other).toMatchObject({ claude: true, cache_tokens: 2000, cache_creation_tokens: 500, cache_creation_ratio: 1.25 });
    });

    it('streams the event stream back as Claude’s events, usage collected across them', async () => {
      const stream = anthropic.messages.stream({ model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(text).toBe(CLAUDE_REPLY_TEXT);
      expect(final.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 40 });
      expect(bedrock.requests[0].path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke-with-response-stream`);
      expect(await lastLog()).toMatchObject({ quota: QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
    });

    it('passes tools and streams the tool use back', async () => {
      const message = await anthropic.messages.create({ model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER_TOOL], tool_choice: { type: 'any' } });
      expect(message).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }] });
      expect(bedrock.requests[0].body).toMatchObject({ tools: [WEATHER_TOOL], tool_choice: { type: 'any' } });

      const stream = anthropic.messages.stream({ model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER_TOOL], tool_choice: { type: 'any' } });
      const final = await stream.finalMessage();
      expect(final.content).toEqual([{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }]);
    });

    it('answers Bedrock’s refusal in Claude’s shape without the secret key', async () => {
      bedrock.handler = () => ({ status: 400, json: { message: `Malformed input request for ${BEDROCK_KEY.secretAccessKey}` } });
      const error = await anthropic.messages.create({ model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const body = JSON.stringify((error as InstanceType<typeof Anthropic.APIError>).error);
      expect(body).toContain('invalid_request_error');
      expect(body).not.toContain(BEDROCK_KEY.secretAccessKey);
    });
  });

  it('tests the channel with a signed request, and lists the Claude models Bedrock serves', async () => {
    expect((await root.get(`/api/channel/test/${channelId}`).expect(200)).body).toMatchObject({ success: true });
    expect(bedrock.requests[0].path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke`);
    const listed = (await root.get(`/api/channel/fetch_models/${channelId}`).expect(200)).body;
    expect(listed.message).toMatch(/no model-list API|没有模型列表接口/);
    expect(listed.data).toContain('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrock.requests).toHaveLength(1);
    const typed = (await root.post('/api/channel/fetch_models').send({ type: 33, key }).expect(200)).body;
    expect(typed.data).toEqual(listed.data);

    const malformed = await seed.createChannel({ name: 'bedrock-bad', type: 33, base_url: bedrock.url, models: 'claude-bedrock', key: 'AKIA-only' });
    expect((await root.get(`/api/channel/test/${malformed}`).set('Accept-Language', 'en').expect(200)).body).toMatchObject({ success: false, message: expect.stringContaining('AK|SK|region') });
  });
});
