import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLAUDE_FORMAT } from '../../formats/claude.format';
import type { JsonObject } from '../../wire/wire-format';
import { UsageMeter } from '../../wire/usage';
import { claudeRequestFromOpenAI, claudeSseDecoder, openAIResponseFromClaude } from './claude-messages';

/** Golden fixtures of every Claude ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;

describe('OpenAI chat → Claude Messages (channel side)', () => {
  it('converts system, images (base64 and URL), tool calls and results, tools, tool_choice, stops and sampling', () => {
    expect(claudeRequestFromOpenAI(json('openai-chat.request.json'), { model: 'claude-sonnet-4-5', defaultMaxTokens: 8192 })).toEqual(json('claude.request.json'));
  });

  it('fills max_tokens from the setting and turns a -thinking model into a thinking budget', () => {
    const body = { model: 'x', messages: [{ role: 'user', content: 'hi' }], temperature: 0.3 };
    expect(claudeRequestFromOpenAI(body, { model: 'claude-3-haiku', defaultMaxTokens: 4096 })).toMatchObject({ max_tokens: 4096, temperature: 0.3 });
    const thinking = claudeRequestFromOpenAI({ ...body, max_tokens: 10000 }, { model: 'claude-sonnet-4-5-thinking', defaultMaxTokens: 8192, thinkingBudgetShare: 0.8 });
    expect(thinking).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 10000, thinking: { type: 'enabled', budget_tokens: 8000 } });
    expect(thinking).not.toHaveProperty('temperature');
  });

  it('turns parallel_tool_calls false into disable_parallel_tool_use', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 't' } }], parallel_tool_calls: false };
    expect(claudeRequestFromOpenAI(body, { model: 'm', defaultMaxTokens: 10 }).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(claudeRequestFromOpenAI({ ...body, tool_choice: 'required' }, { model: 'm', defaultMaxTokens: 10 }).tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('keeps the thinking budget where Claude takes it: from 1024 and below max_tokens', () => {
    const body = { model: 'x', messages: [{ role: 'user', content: 'hi' }] };
    const small = claudeRequestFromOpenAI({ ...body, max_tokens: 500 }, { model: 'claude-sonnet-4-5-thinking', defaultMaxTokens: 8192, thinkingBudgetShare: 0.8 });
    expect(small).toMatchObject({ max_tokens: 1280, thinking: { budget_tokens: 1024 } });
    const whole = claudeRequestFromOpenAI({ ...body, max_tokens: 4000 }, { model: 'claude-sonnet-4-5-thinking', defaultMaxTokens: 8192, thinkingBudgetShare: 1 });
    expect(whole).toMatchObject({ max_tokens: 4000, thinking: { budget_tokens: 3999 } });
  });

  it('reads a Claude answer back as an OpenAI completion, with cache reads and writes in the usage', () => {
    const answer = openAIResponseFromClaude(json('claude.response.json'), 'claude-sonnet-4-5');
    expect({ ...answer, created: undefined }).toEqual({ ...json('openai.response.json'), created: undefined });
  });

  it('decodes Claude stream events into OpenAI chunks, collecting usage from message_start and message_delta', () => {
    const usage = new UsageMeter();
    const decoder = claudeSseDecoder('claude-sonnet-4-5', usage);
    const bytes = Buffer.from(fixture('claude.stream.sse'));
    const chunks = [...decoder.push(bytes.subarray(0, 300)), ...decoder.push(bytes.subarray(300)), ...decoder.end()];
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual((json('openai.stream-chunks.json') as unknown as JsonObject[]).map((choice) => ({ index: 0, ...choice })));
    expect(chunks.every((chunk) => chunk.id === 'msg_02' && chunk.model === 'claude-sonnet-4-5' && chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(usage.total).toMatchObject({ promptTokens: 40, cachedTokens: 10, cacheWriteTokens: 5, completionTokens: 17 });
  });
});

describe('Claude Messages → OpenAI chat (inbound /v1/messages)', () => {
  const options = { model: 'claude-sonnet-4-5', includeUsage: false };

  it('converts the request, and the round trip through the channel side gives the same Claude body', () => {
    const openAI = CLAUDE_FORMAT.toOpenAIRequest(json('claude.request.json'));
    expect(openAI).toEqual(json('openai-from-claude.request.json'));
    expect(claudeRequestFromOpenAI(openAI, { model: 'claude-sonnet-4-5', defaultMaxTokens: 8192 })).toEqual(json('claude.request.json'));
  });

  it("keeps a system prompt's text blocks apart, and a tool_choice that forbids parallel calls", () => {
    const body = { model: 'm', max_tokens: 10, system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 't', input_schema: { type: 'object' } }], tool_choice: { type: 'auto', disable_parallel_tool_use: true } };
    expect(CLAUDE_FORMAT.toOpenAIRequest(body)).toMatchObject({ messages: [{ role: 'system', content: 'You are terse.\nAnswer in French.' }, { role: 'user', content: 'hi' }], tool_choice: 'auto', parallel_tool_calls: false });
  });

  it("refuses Anthropic's own tools (typed: web search, bash, …) by name, and converts custom ones", () => {
    const body = (tools: unknown[]) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools });
    expect(() => CLAUDE_FORMAT.toOpenAIRequest(body([{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }]))).toThrow(/web_search_20250305/);
    expect(CLAUDE_FORMAT.toOpenAIRequest(body([{ type: 'custom', name: 't', input_schema: { type: 'object' } }])).tools).toEqual([{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }]);
  });

  it("keeps Claude Code's system message inside the conversation a system message, and an image a tool result holds in the user's turn", () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    const body = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Read cat.png' }] },
        { role: 'system', content: [{ type: 'text', text: '# Environment' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'cat.png' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image], cache_control: { type: 'ephemeral' } }] },
      ],
    };
    expect(CLAUDE_FORMAT.toOpenAIRequest(body).messages).toEqual([
      { role: 'user', content: 'Read cat.png' },
      { role: 'system', content: '# Environment' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"cat.png"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
    ]);
  });

  it('converts an OpenAI answer into a Claude message', () => {
    expect(CLAUDE_FORMAT.fromOpenAIResponse(json('openai.response.json'), options)).toEqual(json('claude-from-openai.response.json'));
  });

  it('encodes OpenAI chunks as Claude events, opening and closing blocks, with the usage at the end', () => {
    const encoder = CLAUDE_FORMAT.createStreamEncoder(options);
    const chunks = json('openai.stream-chunks.json') as unknown as JsonObject[];
    let sse = '';
    for (const choice of chunks) sse += encoder.encode({ id: 'msg_02', choices: [{ index: 0, ...choice }] });
    sse += encoder.end({ promptTokens: 40, completionTokens: 17, cachedTokens: 10, cacheWriteTokens: 5, reasoningTokens: 0, audioInputTokens: 0, audioOutputTokens: 0, imageInputTokens: 0, imageOutputTokens: 0 });
    expect(sse).toBe(fixture('claude-from-openai.stream.sse'));
  });
});
