import { WordMatcher } from './word-matcher';

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function randomText(random: () => number, alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

describe('WordMatcher', () => {
  const forms = [
    ['dense', undefined],
    ['double array', 0],
  ] as const;

  it.each(forms)('finds words anywhere, case-insensitively (%s)', (_form, limit) => {
    const matcher = WordMatcher.build(['he', 'she', 'his', 'hers', '敏感词', 'ΣΟΦΙΑ'], limit);
    expect(matcher.contains('ushers')).toBe(true);
    expect(matcher.contains('USHERS')).toBe(true);
    expect(matcher.contains('a hi s')).toBe(false);
    expect(matcher.contains('this is')).toBe(true);
    expect(matcher.contains('这是一个敏感词测试')).toBe(true);
    expect(matcher.contains('这是一个敏感测试')).toBe(false);
    expect(matcher.contains('η σοφια')).toBe(true);
    expect(matcher.contains('')).toBe(false);
  });

  it.each(forms)('finds a word that starts inside a failed longer match (%s)', (_form, limit) => {
    const matcher = WordMatcher.build(['abcd', 'bcx', 'c'], limit);
    expect(matcher.contains('abcx')).toBe(true);
    expect(WordMatcher.build(['abcd', 'bce'], limit).contains('abce')).toBe(true);
    expect(WordMatcher.build(['abcd', 'bce'], limit).contains('abcf')).toBe(false);
  });

  it.each(forms)('finds a word wherever it sits in a long text, which is scanned in four stretches (%s)', (_form, limit) => {
    const matcher = WordMatcher.build(['needle', 'Ab'], limit);
    for (const length of [1023, 1024, 1027, 4099, 10_000]) {
      const filler = 'a cde fghi '.repeat(Math.ceil(length / 11)).slice(0, length);
      expect(matcher.contains(filler)).toBe(false);
      const stretch = Math.ceil(length / 4);
      const places = [0, length - 6, ...[1, 2, 3].flatMap((k) => Array.from({ length: 8 }, (_, d) => k * stretch - 6 + d))];
      for (const at of places) {
        const text = filler.slice(0, at) + 'NEEDLE' + filler.slice(at + 6);
        expect({ length, at, found: matcher.contains(text) }).toEqual({ length, at, found: true });
      }
    }
    expect(matcher.contains('x'.repeat(5000) + 'ab')).toBe(true);
    expect(matcher.contains('敏'.repeat(3000) + 'needl')).toBe(false);
  });

  // Chinese words over a few characters (many shared prefixes), and a character in no word.
  const alphabets = [
    ['ASCII', 'abcAB', 'abcABx'],
    ['CJK', '敏感词汇测', '敏感词汇测试'],
  ] as const;
  const cases = forms.flatMap(([form, limit]) => alphabets.map(([alphabet, wordUnits, textUnits]) => [form, alphabet, limit, wordUnits, textUnits] as const));

  it.each(cases)('agrees with a plain search on random texts (%s, %s)', (_form, _alphabet, limit, wordUnits, textUnits) => {
    const random = generator(7);
    for (let round = 0; round < 80; round++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 8) }, () => randomText(random, wordUnits, 1 + Math.floor(random() * 4)));
      const matcher = WordMatcher.build(words, limit);
      for (let probe = 0; probe < 20; probe++) {
        const text = randomText(random, textUnits, Math.floor(random() * 12));
        const expected = words.some((word) => text.toLowerCase().includes(word.toLowerCase()));
        expect({ words, text, found: matcher.contains(text) }).toEqual({ words, text, found: expected });
      }
    }
  });

  it('agrees with a plain search for a large Chinese list (double array)', () => {
    const random = generator(11);
    const units = Array.from({ length: 400 }, (_, index) => String.fromCharCode(0x4e00 + index)).join('');
    const words = Array.from({ length: 3000 }, () => randomText(random, units, 2 + Math.floor(random() * 3)));
    const matcher = WordMatcher.build(words, 0);
    for (let probe = 0; probe < 300; probe++) {
      const text = randomText(random, units + 'ab', Math.floor(random() * 40));
      expect({ text, found: matcher.contains(text) }).toEqual({ text, found: words.some((word) => text.includes(word)) });
    }
  });

  it('is empty for a list of blank entries', () => {
    expect(WordMatcher.build(['', '']).empty).toBe(true);
    expect(WordMatcher.build(['', '']).contains('anything')).toBe(false);
  });
});
