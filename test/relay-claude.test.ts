import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Session } from './support/accounts';
import { anthropicReply, CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { MOCK_REPLY_TEXT, MockUpstream, chatCompletion, chatStreamEvents } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';
import type { TestApp } from './support/test-app';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per token. A mock Claude answer reports 100
 * input, 2000 cache-read, 500 cache-written and 40 output tokens:
 * 100 + 2000 × 0.1 + 500 × 1.25 + 40 × 5 = 1125 quota.
 */
const CLAUDE_QUOTA = 1125;
const PRICES = {
  ModelRatio: { 'claude-test': 1, 'claude-test-thinking': 1, 'gpt-test': 1, 'gpt-mapped': 1 },
  CompletionRatio: { 'claude-test': 5 },
  CacheRatio: { 'claude-test': 0.1, 'gpt-test': 0.5 },
  CreateCacheRatio: { 'claude-test': 1.25 },
};
const WEATHER_TOOL = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('relay: Claude channels (type 14) and the Claude Messages endpoint', () => {
  let app: TestApp;
  let claude: MockUpstream;
  let openaiUpstream: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let token: { id: number; key: string; apiKey: string };
  let openai: OpenAI;
  let anthropic: Anthropic;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, native: claude, openaiUpstream, seed, root, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'claude', type: 14, base_url: claude.url, models: 'claude-test,claude-test-thinking', key: 'sk-ant-upstream-secret' });
    anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: app.baseUrl, maxRetries: 0 });
  });
  afterAll(() => stop());
  beforeEach(() => {
    claude.reset();
    claude.handler = anthropicReply;
    openaiUpstream.reset();
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  describe('the OpenAI client through a Claude channel (converted)', () => {
    it('converts a chat with a system prompt and images, and bills cache reads and writes exactly', async () => {
      const before = await seed.tokenQuota(token.id);
      const answer = await openai.chat.completions.create({
        model: 'claude-test',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PIXEL } }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
        ],
        temperature: 0.2,
      });
      expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
      expect(answer.choices[0].finish_reason).toBe('stop');
      expect(answer.usage).toMatchObject({ prompt_tokens: 2600, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 2000 } });

      const sent = claude.requests[0];
      expect(sent.path).toBe('/v1/messages');
      expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-secret');
      expect(sent.headers['anthropic-version']).toBe('2023-06-01');
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.body).toEqual({
        model: 'claude-test',
        system: 'Be brief.',
        max_tokens: 8192,
        temperature: 0.2,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL.split(',')[1] } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      });

      const log = await lastLog();
      expect(log).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
      expect(log.other).toMatchObject({ cache_tokens: 2000, cache_ratio: 0.1, cache_creation_tokens: 500, cache_creation_ratio: 1.25 });
      expect(before.remain_quota - (await seed.tokenQuota(token.id)).remain_quota).toBe(CLAUDE_QUOTA);
    });

    it('streams text as OpenAI chunks, with a usage chunk only when asked, collected from message_start and message_delta', async () => {
      const plain = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      for await (const chunk of plain) text += chunk.choices[0].delta.content ?? '';
      expect(text).toBe(CLAUDE_REPLY_TEXT);
      expect(claude.requests[0].body).toMatchObject({ stream: true, max_tokens: 8192 });
      expect(await lastLog()).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });

      const asked = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      const usages = [];
      for await (const chunk of asked) if (chunk.usage) usages.push(chunk.usage);
      expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 2600, completion_tokens: 40, total_tokens: 2640 })]);
    });

    it('converts tools and tool_choice, and streams the tool call back', async () => {
      const answer = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER_TOOL], tool_choice: 'required' });
      expect(claude.requests[0].body).toMatchObject({ tools: [{ name: 'get_weather', input_schema: WEATHER_TOOL.function.parameters }], tool_choice: { type: 'any' } });
      expect(answer.choices[0].finish_reason).toBe('tool_calls');
      expect(answer.choices[0].message.tool_calls).toEqual([{ id: 'toolu_mock', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);

      const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER_TOOL], tool_choice: 'required', stream: true });
      let args = '';
      let name = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        const call = chunk.choices[0].delta.tool_calls?.[0];
        if (call?.function?.name) name = call.function.name;
        args += call?.function?.arguments ?? '';
        finish = chunk.choices[0].finish_reason ?? finish;
      }
      expect({ name, args: JSON.parse(args), finish }).toEqual({ name: 'get_weather', args: { city: 'Paris' }, finish: 'tool_calls' });
    });

    it("turns Claude's error event in the middle of a stream into the client's own in-stream error, and bills what was used", async () => {
      const events = [
        { type: 'message_start', message: { id: 'msg_cut', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 50, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial ' } },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ];
      claude.handler = () => ({ status: 200, text: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''), contentType: 'text/event-stream' });

      const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      const failure = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((caught: unknown) => caught);
      expect(text).toBe('Partial ');
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as Error).message).toContain('Overloaded');
      expect(await lastLog()).toMatchObject({ prompt_tokens: 50, completion_tokens: 1 });

      const response = await fetch(`${app.baseUrl}/v1beta/models/claude-test:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': token.apiKey },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      const frames = (await response.text()).split('\n\n').filter(Boolean);
      expect(JSON.parse(frames[frames.length - 1].slice('data: '.length))).toEqual({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });

      // OpenAI's in-stream error chunk, for a Claude client: Claude's error event.
      openaiUpstream.handler = () => ({ sse: [...chatStreamEvents('gpt-test', 'Partial ', null).slice(0, 2), JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', code: null } })] });
      const claudeFailure = await anthropic.messages
        .stream({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage()
        .catch((caught: unknown) => caught);
      expect(claudeFailure).toBeInstanceOf(Anthropic.APIError);
      expect((claudeFailure as Error).message).toContain('The server had an error');
      // Counted locally (no usage came): settled before the next test reads its log.
      expect(await lastLog()).toMatchObject({ model_name: 'gpt-test' });
    });

    it('fails over when Claude sends an error event before any answer, as on an error status', async () => {
      const backup = await seed.createChannel({ name: 'claude-backup', type: 1, base_url: openaiUpstream.url, models: 'claude-test', priority: -1 });
      await seed.setOption('RetryTimes', 1);
      try {
        claude.handler = () => ({ status: 200, text: `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`, contentType: 'text/event-stream' });
        const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe(MOCK_REPLY_TEXT);
        expect({ claude: claude.requests.length, backup: openaiUpstream.requests.length }).toEqual({ claude: 1, backup: 1 });
      } finally {
        await seed.setOption('RetryTimes', 0);
        await root.delete(`/api/channel/${backup}`).expect(200);
      }
    });

    it("answers Claude's errors in OpenAI's shape without the channel key", async () => {
      claude.handler = () => ({ status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: key sk-ant-upstream-secret is bad' } } });
      const error = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as Error).message).toContain('messages: key ***');
      expect((error as Error).message).not.toContain('sk-ant-upstream-secret');
    });
  });

  it('tests a Claude channel and fetches its models', async () => {
    const id = await seed.createChannel({ name: 'claude-probe', type: 14, base_url: claude.url, models: 'claude-probe', test_model: 'claude-probe', key: 'sk-ant-probe' });
    expect((await root.get(`/api/channel/test/${id}`).expect(200)).body).toMatchObject({ success: true });
    expect(claude.requests[0].body).toMatchObject({ model: 'claude-probe', max_tokens: 16, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect((await root.get(`/api/channel/fetch_models/${id}`).expect(200)).body.data).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
    expect((await root.post('/api/channel/fetch_models').send({ type: 14, key: 'sk-ant-typed', base_url: claude.url }).expect(200)).body.data).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
    expect(claude.requests[claude.requests.length - 1].headers['x-api-key']).toBe('sk-ant-typed');
  });

  describe('the Anthropic client on /v1/messages', () => {
    it('passes a Claude request through to a Claude channel byte for byte, and bills its usage with the cache', async () => {
      const message = await anthropic.messages.create({ model: 'claude-test', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
      expect(message.content).toEqual([{ type: 'text', text: CLAUDE_REPLY_TEXT }]);
      expect(message.usage).toMatchObject({ input_tokens: 100, cache_read_input_tokens: 2000, cache_creation_input_tokens: 500, output_tokens: 40 });
      const sent = claude.requests[0];
      expect(JSON.parse(sent.raw.toString('utf8'))).toEqual({ model: 'claude-test', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
      expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-secret');
      const log = await lastLog();
      expect(log).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
      expect(log.other).toMatchObject({ claude: true, request_path: '/messages' });
    });

    it('streams from a Claude channel as it came, usage collected across events', async () => {
      const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(text).toBe(CLAUDE_REPLY_TEXT);
      expect(final.usage).toMatchObject({ input_tokens: 100, output_tokens: 40, cache_read_input_tokens: 2000 });
      expect(await lastLog()).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
    });

    it('converts for an OpenAI channel: text, image, stream and tools, billed from the upstream usage', async () => {
      const message = await anthropic.messages.create({
        model: 'gpt-test',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL.split(',')[1] } }] }],
      });
      expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'gpt-test', content: [{ type: 'text', text: MOCK_REPLY_TEXT }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 7 } });
      expect(openaiUpstream.requests[0].path).toBe('/v1/chat/completions');
      expect(openaiUpstream.requests[0].body).toEqual({
        model: 'gpt-test',
        max_tokens: 100,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: PIXEL } }] },
        ],
      });
      expect(await lastLog()).toMatchObject({ quota: 19, prompt_tokens: 12, completion_tokens: 7 });

      const stream = anthropic.messages.stream({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(text).toBe(MOCK_REPLY_TEXT);
      expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
      expect(openaiUpstream.requests[1].body.stream_options).toEqual({ include_usage: true });

      openaiUpstream.handler = (request) => ({
        status: 200,
        json: {
          ...chatCompletion(String(request.body.model), ''),
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }],
        },
      });
      const toolUse = await anthropic.messages.create({
        model: 'gpt-test',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
        tool_choice: { type: 'tool', name: 'get_weather' },
      });
      expect(openaiUpstream.requests[2].body).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather' } }], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
      expect(toolUse).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] });
    });

    it('passes tools and an image through to a Claude channel, and the tool use back, streamed too', async () => {
      const tool = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
      const content = [{ type: 'text' as const, text: 'Weather where this was taken?' }, { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: PIXEL.split(',')[1] } }];
      const message = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content }], tools: [tool], tool_choice: { type: 'any' } });
      expect(message).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }] });
      expect(claude.requests[0].body).toEqual({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content }], tools: [tool], tool_choice: { type: 'any' } });
      expect(await lastLog()).toMatchObject({ quota: CLAUDE_QUOTA });

      const streamed = await anthropic.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content }], tools: [tool], tool_choice: { type: 'any' } }).finalMessage();
      expect(streamed.content).toEqual([{ type: 'tool_use', id: 'toolu_mock', name: 'get_weather', input: { city: 'Paris' } }]);
      expect(await lastLog()).toMatchObject({ quota: CLAUDE_QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
    });

    it("sends the model's anthropic-beta names (claude.model_headers_settings) with the client's own", async () => {
      await seed.setOption('claude.model_headers_settings', JSON.stringify({ 'claude-test': { 'anthropic-beta': ['output-128k-2025-02-19'] } }));
      try {
        await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } });
        expect(claude.requests[0].headers['anthropic-beta']).toBe('output-128k-2025-02-19,context-1m-2025-08-07');
        await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
        expect(claude.requests[1].headers['anthropic-beta']).toBe('output-128k-2025-02-19');
      } finally {
        await seed.setOption('claude.model_headers_settings', '{}');
      }
    });

    it('applies the thinking adapter to a -thinking model: the model Claude knows, and a budget Claude takes', async () => {
      await anthropic.messages.create({ model: 'claude-test-thinking', max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] });
      expect(claude.requests[0].body).toEqual({ model: 'claude-test', max_tokens: 1280, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
      // A client that asks for thinking itself keeps its own budget.
      await anthropic.messages.create({ model: 'claude-test-thinking', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [{ role: 'user', content: 'hi' }] });
      expect(claude.requests[1].body).toEqual({ model: 'claude-test', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [{ role: 'user', content: 'hi' }] });
      expect(await lastLog()).toMatchObject({ model_name: 'claude-test-thinking', prompt_tokens: 2600, completion_tokens: 40 });
    });

    it('leaves the thinking adapter off for an OpenAI client continuing a tool use, which has no signed thinking block to send back', async () => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      ];
      const answer = await openai.chat.completions.create({ model: 'claude-test-thinking', messages, tools: [WEATHER_TOOL] });
      expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
      expect(claude.requests[0].body).not.toHaveProperty('thinking');
      // The first turn of the loop thinks as the adapter says.
      await openai.chat.completions.create({ model: 'claude-test-thinking', messages: messages.slice(0, 1), tools: [WEATHER_TOOL] });
      expect(claude.requests[1].body).toMatchObject({ thinking: { type: 'enabled' } });
    });

    it("bills an OpenAI channel's cache reads, and reports them as Claude's cache_read_input_tokens", async () => {
      // 12 prompt tokens, 4 of them cached at ratio 0.5, and 7 completion tokens: 8 + 2 + 7 = 17 quota.
      const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, prompt_tokens_details: { cached_tokens: 4 } };
      openaiUpstream.handler = (request) => (request.body.stream ? { sse: chatStreamEvents(String(request.body.model), MOCK_REPLY_TEXT, usage) } : { status: 200, json: chatCompletion(String(request.body.model), MOCK_REPLY_TEXT, usage) });
      const message = await anthropic.messages.create({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(message.usage).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 4, output_tokens: 7 });
      expect(await lastLog()).toMatchObject({ quota: 17, prompt_tokens: 12, completion_tokens: 7 });

      const final = await anthropic.messages.stream({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(final.usage).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 4, output_tokens: 7 });
      const log = await lastLog();
      expect(log).toMatchObject({ quota: 17 });
      expect(log.other).toMatchObject({ cache_tokens: 4, cache_ratio: 0.5 });
    });

    it.each([
      ['stop', 'end_turn'],
      ['length', 'max_tokens'],
      ['tool_calls', 'tool_use'],
      ['content_filter', 'refusal'],
    ])("maps an OpenAI channel's finish_reason %s to Claude's stop_reason %s, streamed and not", async (finishReason, stopReason) => {
      const withReason = (events: string[]) => events.map((event) => event.replace('"finish_reason":"stop"', `"finish_reason":"${finishReason}"`));
      openaiUpstream.handler = (request) =>
        request.body.stream ? { sse: withReason(chatStreamEvents(String(request.body.model), MOCK_REPLY_TEXT, null)) } : { status: 200, json: { ...chatCompletion(String(request.body.model), MOCK_REPLY_TEXT), choices: [{ index: 0, message: { role: 'assistant', content: MOCK_REPLY_TEXT }, finish_reason: finishReason }] } };
      const message = await anthropic.messages.create({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(message.stop_reason).toBe(stopReason);
      const final = await anthropic.messages.stream({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(final.stop_reason).toBe(stopReason);
    });

    it("refuses Anthropic's own tools for an OpenAI channel with a 400 naming the tool, billing nothing, and passes them to a Claude channel", async () => {
      await seed.flush();
      const logsBefore = (await seed.consumeLogs({ tokenId: token.id })).length;
      const tools = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] as unknown as Anthropic.Messages.Tool[];
      const error = await anthropic.messages.create({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'news?' }], tools }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(JSON.stringify((error as InstanceType<typeof Anthropic.APIError>).error)).toMatch(/invalid_request_error.*web_search_20250305/);
      expect(openaiUpstream.requests).toHaveLength(0);
      await seed.flush();
      expect(await seed.consumeLogs({ tokenId: token.id })).toHaveLength(logsBefore);

      await anthropic.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'news?' }], tools });
      expect(claude.requests.at(-1)?.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }]);
    });

    it("answers the gateway's own errors in Claude's shape, with the request id", async () => {
      const stranger = new Anthropic({ apiKey: 'sk-not-a-real-key', baseURL: app.baseUrl, maxRetries: 0 });
      const error = await stranger.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      const body = (error as InstanceType<typeof Anthropic.APIError>).error as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      expect(body.error.message).toMatch(/\(request id: [0-9a-f-]{36}\)$/);

      const unknown = await anthropic.messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    });
  });

  describe('global.pass_through_request_enabled', () => {
    beforeAll(() => seed.createChannel({ name: 'mapped', base_url: openaiUpstream.url, models: 'gpt-mapped', model_mapping: JSON.stringify({ 'gpt-mapped': 'gpt-upstream' }), param_override: JSON.stringify({ temperature: 0 }) }));
    afterEach(() => seed.setOption('global.pass_through_request_enabled', false));

    it('sends the client’s body as it came, without the model mapping, overrides or defaults, and still bills', async () => {
      const raw = '{"model":"gpt-mapped",  "messages":[{"role":"user","content":"hi"}], "vendor_field": {"x": 1}}';
      const send = () => fetch(`${app.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token.apiKey}` }, body: raw });

      expect((await send()).status).toBe(200);
      expect(openaiUpstream.requests[0].body).toMatchObject({ model: 'gpt-upstream', temperature: 0 });

      await seed.setOption('global.pass_through_request_enabled', true);
      const answer = await send();
      expect(answer.status).toBe(200);
      expect(openaiUpstream.requests[1].raw.toString('utf8')).toBe(raw);
      expect(await lastLog()).toMatchObject({ model_name: 'gpt-mapped', quota: 19, prompt_tokens: 12, completion_tokens: 7 });

      // Claude's default max_tokens is the gateway's rewrite too: the client's body goes without it.
      await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
      const claudeRaw = claude.requests[0].raw.toString('utf8');
      expect(JSON.parse(claudeRaw)).toEqual({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
      const refused = await fetch(`${app.baseUrl}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': token.apiKey, 'anthropic-version': '2023-06-01' }, body: '{"model":"claude-test","messages":[{"role":"user","content":"hi"}]}' });
      expect(refused.status).toBe(400);
      expect(JSON.parse(claude.requests[1].raw.toString('utf8'))).not.toHaveProperty('max_tokens');
    });
  });
});
