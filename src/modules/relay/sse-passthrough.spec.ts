import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { CHANNEL_TYPE, channelTypeRow, type ChannelTypeRow } from '../channels/channel-types';
import { OpenAICompatibleAdaptor } from './providers/openai-compatible/openai-compatible.adaptor';
import { followUpstream, readableSource, relayEventStream } from './sse-passthrough';

/** The bytes a client received, with what a ServerResponse needs for the relay to write to it. */
class RecordingResponse extends EventEmitter {
  readonly chunks: Buffer[] = [];
  writableEnded = false;
  writeHead(): this {
    return this;
  }
  write(chunk: string | Buffer): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

const adaptor = new OpenAICompatibleAdaptor(channelTypeRow(CHANNEL_TYPE.OPENAI) as ChannelTypeRow);
const CONTENT = 'data: {"choices":[{"index":0,"delta":{"content":"héllo"}}]}';
const USAGE_ONLY = 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}';

async function relay(chunks: string[], dropUsageChunks: boolean): Promise<{ text: string; promptTokens?: number; deliveredText: string }> {
  const upstream = new PassThrough();
  const response = new RecordingResponse();
  const outcome = relayEventStream(readableSource(upstream), response as unknown as ServerResponse, adaptor, () => false, dropUsageChunks);
  for (const chunk of chunks) upstream.write(Buffer.from(chunk));
  upstream.end();
  const result = await outcome;
  return { text: response.text, promptTokens: result.usage?.promptTokens, deliveredText: result.deliveredText() };
}

describe('SSE pass-through', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('drops a usage-only event (%s line ends) with its blank line, bills from it, and keeps every other byte', async (_name, eol) => {
    const stream = [CONTENT, '', USAGE_ONLY, '', 'data: [DONE]', '', ''].join(eol);
    const { text, promptTokens } = await relay([stream.slice(0, 20), stream.slice(20)], true);
    expect(text).toBe([CONTENT, '', 'data: [DONE]', '', ''].join(eol));
    expect(promptTokens).toBe(3);
  });

  it('passes the usage event through untouched when the client asked for usage', async () => {
    const stream = [CONTENT, '', USAGE_ONLY, '', 'data: [DONE]', '', ''].join('\n');
    const { text, promptTokens } = await relay([stream], false);
    expect(text).toBe(stream);
    expect(promptTokens).toBe(3);
  });

  it('reads the text of an answer without usage, in order, whatever its chunks and line ends', async () => {
    const line = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}`;
    const stream = [line('héllo'), '', line(' wörld'), '', ': keep-alive', '', line('!'), '', 'data: [DONE]', '', ''].join('\r\n');
    const { text, promptTokens, deliveredText } = await relay([stream.slice(0, 30), stream.slice(30, 120), stream.slice(120)], true);
    expect(text).toBe(stream);
    expect(promptTokens).toBeUndefined();
    expect(deliveredText).toBe('héllo wörld!');
  });

  it('delivers a last line that never got its newline', async () => {
    const { text } = await relay([`${CONTENT}\n\ndata: [DONE]`], true);
    expect(text).toBe(`${CONTENT}\n\ndata: [DONE]`);
  });
});

/** An upstream sending `chunks` at once to a client whose buffer is always full, until it drains. */
async function chunksTakenBeforeDrain(queueLength: number, chunks = 10): Promise<{ before: number; after: number }> {
  const upstream = new PassThrough();
  const client = new EventEmitter();
  let taken = 0;
  followUpstream(readableSource(upstream), client as never, () => false, () => (taken++, false), () => undefined, queueLength);
  for (let i = 0; i < chunks; i++) upstream.write(Buffer.from(`data: ${i}\n\n`));
  await new Promise((resolve) => setImmediate(resolve));
  const before = taken;
  client.emit('drain');
  await new Promise((resolve) => setImmediate(resolve));
  return { before, after: taken };
}

describe('StreamCacheQueueLength: chunks queued for a slow client', () => {
  it('pauses the upstream at the first full write when it is 0', async () => {
    expect((await chunksTakenBeforeDrain(0)).before).toBe(1);
  });

  it('queues that many more chunks before pausing, and takes more once the client drains', async () => {
    const { before, after } = await chunksTakenBeforeDrain(3);
    expect(before).toBe(4);
    expect(after).toBe(8);
  });
});
