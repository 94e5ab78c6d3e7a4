import { AnswerLru, decodeAnswer, encodeAnswer, type CachedAnswer } from './cached-answer';
import { canonicalJson } from './response-cache-key';

const USAGE = { promptTokens: 10, completionTokens: 5, cachedTokens: 2 };

function answer(size: number, expiresAtMs = 1_000): CachedAnswer {
  return { bytes: Buffer.alloc(size, 'x'), contentType: 'application/json', usage: USAGE, expiresAtMs };
}

describe('AnswerLru', () => {
  it('drops the least recently used answers once their bytes pass the bound', () => {
    const lru = new AnswerLru();
    const max = 3 * (1000 + 300);
    lru.set('a', answer(1000), max);
    lru.set('b', answer(1000), max);
    lru.set('c', answer(1000), max);
    // A read makes `a` the most recently used, so `b` goes first.
    expect(lru.get('a', 0)).toBeDefined();
    lru.set('d', answer(1000), max);
    expect(lru.get('b', 0)).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => lru.get(key, 0) !== undefined)).toEqual([true, true, true]);
    expect(lru.bytes).toBeLessThanOrEqual(max);
  });

  it('forgets an expired answer when it is read, and frees its bytes', () => {
    const lru = new AnswerLru();
    lru.set('a', answer(500, 100), 10_000);
    expect(lru.get('a', 99)).toBeDefined();
    expect(lru.get('a', 100)).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });
});

describe('Redis values', () => {
  it('round-trip, and refuse what is not one', () => {
    const entry = { ...answer(0), bytes: Buffer.from('{"id":"x"}\n{"still":"the answer"}') };
    expect(decodeAnswer(encodeAnswer(entry))).toEqual(entry);
    expect(decodeAnswer(Buffer.from('no header line'))).toBeUndefined();
    expect(decodeAnswer(Buffer.from('{"type":"application/json","usage":{"promptTokens":-1},"expires":1}\n{}'))).toBeUndefined();
  });
});

describe('canonicalJson', () => {
  it('orders members by name at every depth, and leaves out the skipped top-level ones', () => {
    const skipped = new Set(['stream']);
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: 'é', stream: true }, skipped)).toBe('{"a":"é","b":[{"x":2,"y":1}]}');
    expect(canonicalJson({ a: { stream: true } }, skipped)).toBe('{"a":{"stream":true}}');
  });
});
