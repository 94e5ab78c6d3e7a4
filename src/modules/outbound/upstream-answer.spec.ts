import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { UpstreamAnswerReader, type UpstreamAnswer } from './upstream-answer';

/** undici's side of one call: the controller the reader pauses and aborts. */
class FakeController implements Dispatcher.DispatchController {
  paused = false;
  aborted = false;
  reason: Error | null = null;
  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
}

class Signal extends EventEmitter {
  aborted = false;
}

function started(signal?: Signal): { reader: UpstreamAnswerReader; controller: FakeController; answer: Promise<UpstreamAnswer> } {
  let reader!: UpstreamAnswerReader;
  const answer = new Promise<UpstreamAnswer>((resolve, reject) => (reader = new UpstreamAnswerReader(signal, { resolve, reject })));
  const controller = new FakeController();
  reader.onRequestStart(controller);
  return { reader, controller, answer };
}

describe('UpstreamAnswerReader', () => {
  it('answers at the real headers (not a 100 Continue) and collects the whole body', async () => {
    const { reader, controller, answer } = started();
    reader.onResponseStart(controller, 100, {});
    reader.onResponseStart(controller, 200, { 'content-type': 'application/json' });
    const collected = (await answer).collect(100);
    reader.onResponseData(controller, Buffer.from('{"a":'));
    reader.onResponseData(controller, Buffer.from('1}'));
    reader.onResponseEnd();
    expect((await answer).statusCode).toBe(200);
    expect((await collected)?.toString()).toBe('{"a":1}');
  });

  it('stops reading a body past the limit, and answers undefined', async () => {
    const { reader, controller, answer } = started();
    reader.onResponseStart(controller, 200, {});
    reader.onResponseData(controller, Buffer.alloc(60));
    const collected = (await answer).collect(100);
    reader.onResponseData(controller, Buffer.alloc(60));
    expect(await collected).toBeUndefined();
    expect(controller.aborted).toBe(true);
  });

  it('gives a follower the chunks that came before it, then the rest, with backpressure', async () => {
    const { reader, controller, answer } = started();
    reader.onResponseStart(controller, 200, { 'content-type': 'text/event-stream' });
    reader.onResponseData(controller, Buffer.from('one '));
    const upstream = await answer;
    const chunks: string[] = [];
    const ended = new Promise<boolean>((resolve) =>
      upstream.follow((chunk) => {
        chunks.push(chunk.toString());
        upstream.pause();
      }, resolve),
    );
    expect(chunks).toEqual(['one ']);
    reader.onResponseData(controller, Buffer.from('two'));
    expect(controller.paused).toBe(true);
    reader.onResponseEnd();
    expect(await ended).toBe(false);
    expect(chunks).toEqual(['one ', 'two']);
  });

  it('rejects before the headers, and fails a follower or a collection after them', async () => {
    const early = started();
    early.reader.onResponseError(early.controller, new Error('connect refused'));
    await expect(early.answer).rejects.toThrow('connect refused');

    const late = started();
    late.reader.onResponseStart(late.controller, 200, {});
    const collected = (await late.answer).collect(100);
    late.reader.onResponseError(late.controller, new Error('reset'));
    await expect(collected).rejects.toThrow('reset');

    const following = started();
    following.reader.onResponseStart(following.controller, 200, {});
    const failed = new Promise<boolean>((resolve) => following.reader.follow(() => undefined, resolve));
    following.reader.onResponseError(following.controller, new Error('reset'));
    expect(await failed).toBe(true);
  });

  it('aborts the call when its signal fires, and forgets the signal once the answer ends', () => {
    const signal = new Signal();
    const first = started(signal);
    expect(signal.listenerCount('abort')).toBe(1);
    signal.emit('abort');
    expect(first.controller.aborted).toBe(true);

    const other = new Signal();
    const second = started(other);
    second.reader.onResponseStart(second.controller, 200, {});
    second.reader.onResponseEnd();
    expect(other.listenerCount('abort')).toBe(0);
  });

  it('streams the body on demand, chunks that came first included', async () => {
    const { reader, controller, answer } = started();
    reader.onResponseStart(controller, 500, {});
    reader.onResponseData(controller, Buffer.from('upstream '));
    const body = (await answer).body;
    reader.onResponseData(controller, Buffer.from('failed'));
    reader.onResponseEnd();
    let text = '';
    for await (const chunk of body) text += String(chunk);
    expect(text).toBe('upstream failed');
  });
});
