import { Readable } from 'node:stream';
import { JsonArrayFramer, reframedStream } from './stream-framing';

const ARRAY = '[{\r\n  "candidates": [{"content": {"parts": [{"text": "a \\"quoted\\" } ] brace"}]}}]\r\n}\r\n,\r\n{\r\n  "usageMetadata": {"promptTokenCount": 3}\r\n}\r\n]';

describe('JsonArrayFramer', () => {
  it('turns each element of a streamed JSON array into one SSE event, however the bytes are cut', () => {
    const whole = new JsonArrayFramer();
    const expected = whole.push(Buffer.from(ARRAY)) + whole.end();
    const events = expected.split('\n\n').filter(Boolean).map((event) => JSON.parse(event.replace(/^data: /, '')));
    expect(events).toEqual([{ candidates: [{ content: { parts: [{ text: 'a "quoted" } ] brace' }] } }] }, { usageMetadata: { promptTokenCount: 3 } }]);

    const byteByByte = new JsonArrayFramer();
    let out = '';
    for (const byte of Buffer.from(ARRAY)) out += byteByByte.push(Buffer.from([byte]));
    expect(out + byteByByte.end()).toBe(expected);
  });

  it('refuses what is not an array of objects, and an array cut inside an element', () => {
    expect(() => new JsonArrayFramer().push(Buffer.from('[1, 2]'))).toThrow();
    const cut = new JsonArrayFramer();
    cut.push(Buffer.from('[{"a": 1'));
    expect(() => cut.end()).toThrow();
  });

  it('breaks the re-framed stream when a frame cannot be read', async () => {
    const stream = reframedStream(Readable.from([Buffer.from('[{"a": 1},'), Buffer.from(' oops]')]), new JsonArrayFramer());
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow(/other than objects/);
  });
});
