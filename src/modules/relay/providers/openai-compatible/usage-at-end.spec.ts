import { topLevelUsage } from './usage-at-end';

const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, prompt_tokens_details: { cached_tokens: 4 } };
const read = (answer: unknown) => topLevelUsage(Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer)));

describe('topLevelUsage', () => {
  it('reads the usage object at the end of an answer, compact or pretty-printed', () => {
    const answer = { id: 'c1', choices: [{ message: { role: 'assistant', content: 'Hi {there} "quoted" \\ done' } }], usage, system_fingerprint: 'fp_1' };
    expect(read(answer)).toEqual(usage);
    expect(read(JSON.stringify(answer, null, 2))).toEqual(usage);
  });

  it('reads it wherever it stands among the top-level keys', () => {
    expect(read({ usage, choices: [{ message: { content: 'text with } and ] and {' } }], tail: { nested: [1, { a: 2 }] } })).toEqual(usage);
  });

  it('is never fooled by generated text that looks like usage', () => {
    const content = JSON.stringify({ usage: { prompt_tokens: 999999 } });
    expect(read({ usage, choices: [{ message: { content } }] })).toEqual(usage);
    expect(read({ choices: [{ message: { content } }] })).toBeUndefined();
  });

  it('gives up (so the caller parses the whole answer) when the last usage key is not top-level or not an object', () => {
    expect(read({ usage, x_provider: { usage: { prompt_tokens: 1 } } })).toBeUndefined();
    expect(read({ usage, kind: 'usage' })).toBeUndefined();
    expect(read({ usage: null })).toBeUndefined();
    expect(read('{"usage": {"prompt_tokens": 1')).toBeUndefined();
    expect(read('not json at all')).toBeUndefined();
  });
});
