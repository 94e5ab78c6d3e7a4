import { Readable } from 'node:stream';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { JsonObject } from '../../wire/wire-format';
import type { UpstreamTarget } from '../adaptor';
import type { OptionsService } from '../../../options/options.service';
import { ClaudeSettings } from '../claude/claude-settings';
import type { ImageFetcherService } from '../image-fetcher.service';
import { UsageMeter } from '../../wire/usage';
import { BedrockAdaptor, parseBedrockKey } from './bedrock.adaptor';

function claudeSettings(thinkingAdapter: boolean, modelHeaders = {}): ClaudeSettings {
  const options: Record<string, unknown> = { 'claude.default_max_tokens': { default: 8192 }, 'claude.thinking_adapter_enabled': thinkingAdapter, 'claude.thinking_adapter_budget_tokens_percentage': 0.8, 'claude.model_headers_settings': modelHeaders };
  return new ClaudeSettings({ get: (key: string) => options[key] } as unknown as OptionsService);
}
const adaptor = new BedrockAdaptor(claudeSettings(false), {} as ImageFetcherService);
const target = { channel: { baseUrl: '' }, key: 'AK|SK|eu-west-1', endpoint: 'chat', upstreamModel: 'anthropic.claude-v2', stream: true } as unknown as UpstreamTarget;

function frames(events: JsonObject[], type = 'chunk'): Buffer {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  return Buffer.concat(
    events.map((event) =>
      Buffer.from(codec.encode({ headers: { ':event-type': { type: 'string', value: type } }, body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') })) })),
    ),
  );
}

describe('BedrockAdaptor', () => {
  it('reads AK|SK|region keys and builds the regional invoke URLs', () => {
    expect(parseBedrockKey(' AK | SK | eu-west-1 ')).toEqual({ accessKeyId: 'AK', secretAccessKey: 'SK', region: 'eu-west-1' });
    expect(() => parseBedrockKey('only-one-part')).toThrow('AK|SK|region');
    expect(adaptor.buildUrl(target)?.href).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-v2/invoke-with-response-stream');
  });

  it('re-frames event-stream frames cut at any byte as Claude SSE, which decodes into OpenAI chunks, skipping other event types', async () => {
    const bytes = Buffer.concat([
      frames([{ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 7, output_tokens: 1 } } }]),
      frames([{ type: 'ping' }], 'other'),
      frames([
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
      ]),
    ]);
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 7) pieces.push(bytes.subarray(at, at + 7));
    const sse = await readAll(adaptor.reframeStream(Readable.from(pieces)));
    expect(sse.split('\n\n').filter(Boolean).map((event) => event.split('\n')[0])).toEqual(['event: message_start', 'event: content_block_delta', 'event: message_delta']);

    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target, usage);
    const chunks = [...decoder.push(Buffer.from(sse)), ...decoder.end()];
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { content: 'Hi' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
    expect(usage.total).toMatchObject({ promptTokens: 7, completionTokens: 3 });
  });

  it("turns an exception frame into Claude's error event, and breaks the stream on a frame that fails its checksum", async () => {
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const exception = Buffer.from(
      codec.encode({ headers: { ':message-type': { type: 'string', value: 'exception' }, ':exception-type': { type: 'string', value: 'throttlingException' } }, body: fromUtf8('{"message":"Too many requests"}') }),
    );
    expect(await readAll(adaptor.reframeStream(Readable.from([exception])))).toBe('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many requests"}}\n\n');

    const corrupt = frames([{ type: 'ping' }]);
    corrupt[corrupt.length - 1] ^= 0xff;
    await expect(readAll(adaptor.reframeStream(Readable.from([corrupt])))).rejects.toThrow();
  });

  it('fits a Claude client body for Bedrock: only the fields Bedrock takes (no model, stream or metadata), its anthropic_version, the beta header as a field', () => {
    const body = { model: 'claude', stream: true, metadata: { user_id: 'u1' }, messages: [], system: 'Be brief.', thinking: { type: 'enabled', budget_tokens: 2048 } };
    const fitted = adaptor.fitRequest({ ...target, clientHeaders: { 'anthropic-beta': 'a, b' } }, body);
    expect(fitted).toEqual({ anthropic_version: 'bedrock-2023-05-31', messages: [], system: 'Be brief.', thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 8192, anthropic_beta: ['a', 'b'] });
  });

  it("adds the model's anthropic-beta names (claude.model_headers_settings) to the client's, each once", () => {
    const configured = new BedrockAdaptor(claudeSettings(false, { 'anthropic.claude-v2': { 'Anthropic-Beta': ['b', 'c'] } }), {} as ImageFetcherService);
    expect(configured.fitRequest({ ...target, clientHeaders: { 'anthropic-beta': 'a, b' } }, { messages: [] }).anthropic_beta).toEqual(['b', 'c', 'a']);
    expect(configured.fitRequest(target, { messages: [] }).anthropic_beta).toEqual(['b', 'c']);
  });

  it("applies the thinking adapter to a -thinking model: Bedrock's model id in the path, and a thinking budget in the body", () => {
    const thinking = new BedrockAdaptor(claudeSettings(true), {} as ImageFetcherService);
    const suffixed = { ...target, upstreamModel: 'anthropic.claude-v2-thinking' };
    expect(thinking.buildUrl(suffixed)?.pathname).toBe('/model/anthropic.claude-v2/invoke-with-response-stream');
    expect(thinking.fitRequest(suffixed, { model: 'x', max_tokens: 2000, messages: [] })).toEqual({ anthropic_version: 'bedrock-2023-05-31', messages: [], max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1600 } });
  });
});

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}
