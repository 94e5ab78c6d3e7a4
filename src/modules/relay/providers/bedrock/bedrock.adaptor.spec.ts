import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { JsonObject } from '../adaptor';
import type { ClaudeSettings } from '../claude/claude-settings';
import { UsageMeter } from '../usage';
import { BedrockAdaptor, parseBedrockKey } from './bedrock.adaptor';

const settings = { defaultMaxTokens: () => 8192, thinkingBudgetShare: () => undefined, modelHeaders: () => ({}) } as unknown as ClaudeSettings;
const adaptor = new BedrockAdaptor(settings);
const target = { channel: { baseUrl: '' }, key: 'AK|SK|eu-west-1', endpoint: 'chat', upstreamModel: 'anthropic.claude-v2', stream: true } as never;

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

  it('decodes event-stream frames cut at any byte into OpenAI chunks, skipping other event types', () => {
    const usage = new UsageMeter();
    const decoder = adaptor.createStreamDecoder(target, usage);
    const bytes = Buffer.concat([
      frames([{ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 7, output_tokens: 1 } } }]),
      frames([{ type: 'ping' }], 'other'),
      frames([
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
      ]),
    ]);
    const chunks: JsonObject[] = [];
    for (let at = 0; at < bytes.length; at += 7) chunks.push(...decoder.push(bytes.subarray(at, at + 7)));
    expect(chunks.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { content: 'Hi' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
    expect(usage.total).toMatchObject({ promptTokens: 7, completionTokens: 3 });
  });
});
