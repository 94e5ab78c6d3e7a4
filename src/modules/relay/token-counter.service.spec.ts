import { estimatePromptTokens } from './token-counter';
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

  it('counts a rerank prompt as its query and every document, strings and Jina’s or Cohere’s {text} alike, for the bill and the hold', async () => {
    const body = { query: 'capital of France', documents: ['Berlin is in Germany', { text: 'Paris is the capital of France' }] };
    const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
    expect(await counter.countPrompt('rerank', 'rerank-v3.5', body)).toBe(count('capital of France') + count('Berlin is in Germany\nParis is the capital of France'));
    // The hold's estimate: a token per three bytes of each text.
    expect(estimatePromptTokens('rerank', body)).toBe(Math.ceil(17 / 3) + Math.ceil(51 / 3));
  });

  it('extrapolates past its cap instead of counting a huge text whole', async () => {
    const huge = 'word '.repeat(200_000);
    const counted = await counter.countText('gpt-4o', huge);
    expect(Math.abs(counted - 200_000) / 200_000).toBeLessThan(0.01);
  });
});
