import { SseDecoder } from './sse-decoder';
import { UsageMeter } from './usage';

describe('UsageMeter', () => {
  it('collects counts reported piecemeal, a later count replacing only the same field', () => {
    const meter = new UsageMeter();
    expect(meter.total).toBeUndefined();
    meter.add({ promptTokens: 30, cachedTokens: 10, cacheWriteTokens: 5, completionTokens: 1 });
    meter.add(undefined);
    meter.add({ completionTokens: 42, reasoningTokens: 7 });
    expect(meter.total).toEqual({ promptTokens: 30, completionTokens: 42, cachedTokens: 10, cacheWriteTokens: 5, reasoningTokens: 7, audioInputTokens: 0, audioOutputTokens: 0, imageInputTokens: 0, imageOutputTokens: 0 });
  });
});

describe('SseDecoder', () => {
  it('splits events across chunk boundaries, multi-byte characters and CRLF included', () => {
    const decoder = new SseDecoder();
    const bytes = Buffer.from('event: message_start\r\ndata: {"a":"héllo"}\r\n\r\ndata: one\ndata: two\n\ndata: [DONE]');
    const cut = bytes.indexOf(0xc3) + 1;
    const events = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut)), ...decoder.end()];
    expect(events).toEqual([{ event: 'message_start', data: '{"a":"héllo"}' }, { event: undefined, data: 'one\ntwo' }, { event: undefined, data: '[DONE]' }]);
  });

  it('reads the same events wherever the bytes are cut, a cut between CR and LF included', () => {
    const bytes = Buffer.from('event: ping\r\ndata:{}\r\n\r\n: comment\ndata: é\ndata:\n\nevent: end\ndata: x\n\n');
    const expected = [{ event: 'ping', data: '{}' }, { event: undefined, data: 'é\n' }, { event: 'end', data: 'x' }];
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new SseDecoder();
      expect([...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut)), ...decoder.end()]).toEqual(expected);
    }
  });
});
