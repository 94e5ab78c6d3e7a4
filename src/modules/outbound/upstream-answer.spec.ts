import { EventEmitter } from 'node:events';
import { UpstreamAnswerReader, type UpstreamAnswer } from './upstream-answer';

/**
 * undici's side of one call, as its Client drives a handler: it stops reading when onHeaders
 * or onData answers false, until the resume function it gave is called.
 */
class FakeClient {
  paused = false;
  aborted = false;
  reason: Error | undefined;
  constructor(private readonly reader: UpstreamAnswerReader) {}
  abort = (reason?: Error): void => {
    this.aborted = true;
    this.reason = reason;
  };
  private resume = (): void => {
    this.paused = false;
  };
  headers(statusCode: number, headers: Record<string, string> = {}): void {
    const raw = Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
    this.paused = !this.reader.onHeaders(statusCode, raw, this.resume);
  }
  data(text: string | Buffer): void {
    this.paused = !this.reader.onData(typeof text === 'string' ? Buffer.from(text) : text);
  }
  complete(): void {
    this.reader.onComplete();
  }
  error(error: Error): void {
    this.reader.onError(error);
  }
}

class Signal extends EventEmitter {
  aborted = false;
}

function started(signal?: Signal): { reader: UpstreamAnswerReader; client: FakeClient; answer: Promise<UpstreamAnswer> } {
  let reader!: UpstreamAnswerReader;
  const answer = new Promise<UpstreamAnswer>((resolve, reject) => (reader = new UpstreamAnswerReader(signal, { resolve, reject })));
  const client = new FakeClient(reader);
  reader.onConnect(client.abort);
  return { reader, client, answer };
}

describe('UpstreamAnswerReader', () => {
  it('answers at the real headers (not a 100 Continue) and collects the whole body', async () => {
    const { client, answer } = started();
    client.headers(100, {});
    client.headers(200, { 'content-type': 'application/json' });
    const collected = (await answer).collect(100);
    client.data('{"a":');
    client.data('1}');
    client.complete();
    expect((await answer).statusCode).toBe(200);
    expect((await answer).headers['content-type']).toBe('application/json');
    expect((await collected)?.toString()).toBe('{"a":1}');
  });

  it('reads one header by its lower-case name without parsing the rest, and all of them on demand', async () => {
    const { client, answer } = started();
    client.headers(200, { 'Content-Type': 'text/event-stream', 'X-Trace': 'a' });
    const upstream = await answer;
    expect(upstream.header('content-type')).toBe('text/event-stream');
    expect(upstream.header('content-length')).toBeUndefined();
    expect(upstream.headers).toEqual({ 'content-type': 'text/event-stream', 'x-trace': 'a' });
    expect(upstream.header('x-trace')).toBe('a');
  });

  it('stops reading a body past the limit, and answers undefined', async () => {
    const { client, answer } = started();
    client.headers(200, {});
    client.data(Buffer.alloc(60));
    const collected = (await answer).collect(100);
    client.data(Buffer.alloc(60));
    expect(await collected).toBeUndefined();
    expect(client.aborted).toBe(true);
  });

  it('gives a follower the chunks that came before it, then the rest, with backpressure', async () => {
    const { client, answer } = started();
    client.headers(200, { 'content-type': 'text/event-stream' });
    client.data('one ');
    const upstream = await answer;
    const chunks: string[] = [];
    const ended = new Promise<boolean>((resolve) =>
      upstream.follow((chunk) => {
        chunks.push(chunk.toString());
        upstream.pause();
      }, resolve),
    );
    expect(chunks).toEqual(['one ']);
    client.data('two');
    expect(client.paused).toBe(true);
    client.complete();
    expect(await ended).toBe(false);
    expect(chunks).toEqual(['one ', 'two']);
  });

  it('rejects before the headers, and fails a follower or a collection after them', async () => {
    const early = started();
    early.client.error(new Error('connect refused'));
    await expect(early.answer).rejects.toThrow('connect refused');

    const late = started();
    late.client.headers(200, {});
    const collected = (await late.answer).collect(100);
    late.client.error(new Error('reset'));
    await expect(collected).rejects.toThrow('reset');

    const following = started();
    following.client.headers(200, {});
    const failed = new Promise<boolean>((resolve) => following.reader.follow(() => undefined, resolve));
    following.client.error(new Error('reset'));
    expect(await failed).toBe(true);
  });

  it('aborts the call when its signal fires, and forgets the signal once the answer ends', () => {
    const signal = new Signal();
    const first = started(signal);
    expect(signal.listenerCount('abort')).toBe(1);
    signal.emit('abort');
    expect(first.client.aborted).toBe(true);

    const other = new Signal();
    const second = started(other);
    second.client.headers(200, {});
    second.client.complete();
    expect(other.listenerCount('abort')).toBe(0);
  });

  it('streams the body on demand, chunks that came first included', async () => {
    const { client, answer } = started();
    client.headers(500, {});
    client.data('upstream ');
    const body = (await answer).body;
    client.data('failed');
    client.complete();
    let text = '';
    for await (const chunk of body) text += String(chunk);
    expect(text).toBe('upstream failed');
  });
});
