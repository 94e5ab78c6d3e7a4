import { TokenCounterService } from './token-counter.service';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countTokens } = require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: (text: string, options: object) => number };

describe('TokenCounterService (worker thread)', () => {
  const counter = new TokenCounterService();
  afterAll(() => counter.onApplicationShutdown());

  it('counts long ordinary text in pieces exactly as one whole count would', async () => {
    let text = '';
    for (let index = 0; text.length < 50_000; index++) text += `The quick brown fox ${index} jumps over the lazy dog.\n`;
    expect(await counter.countText('gpt-4o', text)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
  });

  it('counts chat framing, and special-token text as plain text', async () => {
    const body = { messages: [{ role: 'user', content: 'hello <|endoftext|>' }] };
    const expected = 3 + 3 + countTokens('user', {}) + countTokens('hello <|endoftext|>', { disallowedSpecial: new Set() });
    expect(await counter.countPrompt('chat', 'gpt-4o', body)).toBe(expected);
  });

  it('extrapolates past its cap instead of counting a huge text whole', async () => {
    const huge = 'word '.repeat(200_000);
    const counted = await counter.countText('gpt-4o', huge);
    expect(Math.abs(counted - 200_000) / 200_000).toBeLessThan(0.01);
  });
});
