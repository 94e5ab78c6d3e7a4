import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { COHERE_EMBED_TOKENS_PER_TEXT, COHERE_KEY, COHERE_REPLY_TEXT, cohereReply } from './support/mock-cohere';
import type { MockUpstream } from './support/mock-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';

/**
 * At QuotaPerUnit 500000 a ratio r costs r quota per bed.token. The mock Cohere bills 11 input and
 * 7 output tokens (its `tokens` say 300 input: not what Cohere charges): 11 + 7 × 3 = 32 quota.
 * An embed call bills 3 tokens per text; a rerank call costs its ModelPrice, 0.002 × 500000.
 */
const CHAT_QUOTA = 32;
const RERANK_QUOTA = 1000;
const PRICES = {
  ModelRatio: { 'command-test': 1, 'command-bad': 1, 'command-limit': 1, 'embed-test': 1, 'gpt-test': 1 },
  CompletionRatio: { 'command-test': 3 },
  ModelPrice: { 'rerank-test': 0.002 },
};
const WEATHER = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('relay: Cohere channels (type 34), v2 API', () => {
  let bed: NativeRelayTestbed;
  let cohere: MockUpstream;
  let channelId: number;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    cohere = bed.native;
    channelId = await bed.seed.createChannel({ name: 'cohere', type: CHANNEL_TYPE.COHERE, base_url: cohere.url, models: 'command-test,embed-test,rerank-test', key: COHERE_KEY });
  });
  afterAll(() => bed.stop());
  beforeEach(async () => {
    cohere.reset();
    cohere.handler = cohereReply;
    await bed.seed.flush();
  });

  async function lastLog() {
    await bed.seed.flush();
    return (await bed.seed.consumeLogs({ tokenId: bed.token.id })).slice(-1)[0];
  }

  function expectNoSecret(text: string): void {
    expect(text).not.toContain(COHERE_KEY);
    expect(text).not.toContain(bed.token.key);
  }

  it('converts a chat to /v2/chat with the bearer key, and bills billed_units exactly', async () => {
    const answer = await bed.openai.chat.completions.create({
      model: 'command-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      max_tokens: 100,
      temperature: 0.3,
      top_p: 0.8,
      stop: 'END',
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: COHERE_REPLY_TEXT }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
    const sent = cohere.requests[0];
    expect(sent.path).toBe('/v2/chat');
    expect(sent.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
    expect(sent.body).toEqual({ model: 'command-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], max_tokens: 100, temperature: 0.3, p: 0.8, stop_sequences: ['END'] });
    const log = await lastLog();
    expect(log).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 11, completion_tokens: 7, channel_id: channelId });
    expectNoSecret(JSON.stringify(log));
  });

  it('streams as OpenAI chunks, with the usage chunk when asked', async () => {
    const stream = await bed.openai.chat.completions.create({ model: 'command-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    const finishes = [];
    for await (const chunk of stream) {
      if (chunk.usage) usages.push(chunk.usage);
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect(text).toBe(COHERE_REPLY_TEXT);
    expect(finishes).toEqual(['stop']);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 11, completion_tokens: 7 })]);
    expect(cohere.requests[0].body).toMatchObject({ stream: true });
    expect(cohere.requests[0].body.stream_options).toBeUndefined();
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 11, completion_tokens: 7 });
  });

  it('round-trips a tool call: the call (with its plan as reasoning), then the result back in Cohere’s messages', async () => {
    const tools = [{ type: 'function' as const, function: WEATHER }];
    const first = await bed.openai.chat.completions.create({ model: 'command-test', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, tool_choice: 'required' });
    const message = first.choices[0].message as OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string };
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(message.reasoning_content).toBe('I will call the tool.');
    expect(message.tool_calls).toEqual([{ id: 'get_weather_mock01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(cohere.requests[0].body).toMatchObject({ tools: [{ type: 'function', function: WEATHER }], tool_choice: 'REQUIRED' });

    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: message.tool_calls },
      { role: 'tool', tool_call_id: 'get_weather_mock01', content: '{"temperature":21}' },
    ];
    const second = await bed.openai.chat.completions.create({ model: 'command-test', messages: history, tools });
    expect(second.choices[0].message.content).toBe('The tool said {"temperature":21}');
    expect(cohere.requests[1].body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', tool_calls: [{ id: 'get_weather_mock01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'get_weather_mock01', content: '{"temperature":21}' },
    ]);
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA });

    // The same call streamed: Cohere's tool-call events become OpenAI's tool call deltas.
    const stream = await bed.openai.chat.completions.create({ model: 'command-test', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, stream: true });
    let name = '';
    let args = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect({ name, args: JSON.parse(args) as unknown, finish }).toEqual({ name: 'get_weather', args: { city: 'Paris' }, finish: 'tool_calls' });
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 11, completion_tokens: 7 });
  });

  it('serves the Anthropic client’s Messages through Cohere, whole and streamed', async () => {
    const anthropic = new Anthropic({ apiKey: bed.token.apiKey, baseURL: bed.app.baseUrl, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'command-test', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([{ type: 'text', text: COHERE_REPLY_TEXT }]);
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 7 });
    expect(cohere.requests[0].body).toMatchObject({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], max_tokens: 100 });

    const stream = anthropic.messages.stream({ model: 'command-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    expect((await stream.finalMessage()).usage).toMatchObject({ input_tokens: 11, output_tokens: 7 });
    expect(text).toBe(COHERE_REPLY_TEXT);
    expect(await lastLog()).toMatchObject({ quota: CHAT_QUOTA, prompt_tokens: 11, completion_tokens: 7 });
  });

  it('embeds through /v2/embed for the OpenAI SDK (base64 by default, floats on request), billed from billed_units', async () => {
    const result = await bed.openai.embeddings.create({ model: 'embed-test', input: ['one', 'two'] });
    expect(result.data.map((entry) => entry.embedding)).toEqual([[0, 0.5, -0.25], [1, 0.5, -0.25]]);
    expect(result.usage).toMatchObject({ prompt_tokens: 2 * COHERE_EMBED_TOKENS_PER_TEXT });
    expect(cohere.requests[0].path).toBe('/v2/embed');
    expect(cohere.requests[0].body).toEqual({ model: 'embed-test', texts: ['one', 'two'], input_type: 'search_document', embedding_types: ['float'] });
    expect(await lastLog()).toMatchObject({ quota: 2 * COHERE_EMBED_TOKENS_PER_TEXT, prompt_tokens: 6, completion_tokens: 0 });

    const floats = await bed.openai.embeddings.create({ model: 'embed-test', input: 'one', encoding_format: 'float' });
    expect(floats.data[0].embedding).toEqual([0, 0.5, -0.25]);

    const refused = await bed.openai.embeddings.create({ model: 'embed-test', input: [[1, 2, 3]] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });

  it('reranks through /v2/rerank in Cohere’s shape, documents put back, billed per request', async () => {
    const response = await fetch(`${bed.app.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-test', query: 'capital of France', documents: ['Berlin is in Germany', { text: 'Paris is the capital of France' }], top_n: 1 }),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ results: [{ index: 1, relevance_score: 1, document: { text: 'Paris is the capital of France' } }], meta: { billed_units: { search_units: 1 } } });
    expect(cohere.requests[0].body).toEqual({ model: 'rerank-test', query: 'capital of France', documents: ['Berlin is in Germany', 'Paris is the capital of France'], top_n: 1 });
    expect((await lastLog()).quota).toBe(RERANK_QUOTA);
    expectNoSecret(text);
  });

  it('tests the channel with a chat and lists models from /v1/models', async () => {
    const probe = await bed.seed.createChannel({ name: 'cohere-probe', type: CHANNEL_TYPE.COHERE, base_url: `${cohere.url}/v2`, models: 'command-probe', key: COHERE_KEY });
    expect((await bed.root.get(`/api/channel/test/${probe}`).expect(200)).body).toMatchObject({ success: true });
    expect(cohere.requests[0]).toMatchObject({ path: '/v2/chat', body: { model: 'command-probe', max_tokens: 16 } });
    expect((await bed.root.get(`/api/channel/fetch_models/${channelId}`).expect(200)).body.data).toEqual(['command-a-03-2025', 'embed-v4.0']);
    expect(cohere.requests[1]).toMatchObject({ method: 'GET', path: '/v1/models?page_size=1000' });
  });

  it('disables a channel on Cohere’s 401 (invalid api token) and 402 (billing limit), never showing the key', async () => {
    await bed.seed.setOption('AutomaticDisableChannelEnabled', true);
    try {
      const badKey = await bed.seed.createChannel({ name: 'cohere-bad', type: CHANNEL_TYPE.COHERE, base_url: cohere.url, models: 'command-bad', key: 'co-revoked-key-000000000' });
      const refused = await bed.openai.chat.completions.create({ model: 'command-bad', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      expect(cohere.requests[0].headers.authorization).toBe('Bearer co-revoked-key-000000000');
      expectNoSecret(JSON.stringify(refused));
      expect(JSON.stringify(refused)).not.toContain('co-revoked-key');
      expect(await bed.seed.channelStatusEventually(badKey, 3)).toBe(3);

      cohere.handler = () => ({ status: 402, json: { id: 'x', message: 'Please add or update your payment method at https://dashboard.cohere.com/billing?tab=payment to continue' } });
      const overLimit = await bed.seed.createChannel({ name: 'cohere-limit', type: CHANNEL_TYPE.COHERE, base_url: cohere.url, models: 'command-limit', key: COHERE_KEY });
      await bed.openai.chat.completions.create({ model: 'command-limit', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(await bed.seed.channelStatusEventually(overLimit, 3)).toBe(3);
      expect((await bed.seed.channel(channelId)).status).toBe(1);
    } finally {
      await bed.seed.setOption('AutomaticDisableChannelEnabled', false);
    }
  });
});
