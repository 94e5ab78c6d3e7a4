import { promptHasWord } from '../src/modules/relay/sensitive-words/sensitive-words.service';
import { WordMatcher } from '../src/modules/relay/sensitive-words/word-matcher';
import { median } from './process-stats';

const WORDS = 10_000;
const PROMPT_UNITS = 10 * 1024;
/** Slices timed at each sample; the figure is the median slice of all samples. */
const SLICES_PER_SAMPLE = 3;
const RUNS_PER_SLICE = 300;
const WARM_UP_RUNS = 1_000;

const ENGLISH_PARAGRAPH =
  'The quarterly report shows steady growth across every region, with revenue up eleven percent and costs held flat. ' +
  'Please summarise the main drivers, list the risks the team raised, and suggest three questions for the board meeting. ';
const CHINESE_PARAGRAPH =
  '本季度报告显示各地区业务稳定增长，收入增长百分之十一，成本保持不变。请总结主要的增长因素，列出团队提出的风险，并为董事会会议提出三个问题。';

/** The two prompts the bench checks: English words of 4 to 10 letters, Chinese words of 2 to 4 characters. */
const LANGUAGES = {
  english: { paragraph: ENGLISH_PARAGRAPH, word: (random: () => number) => randomWord(random, 4, 7, () => 97 + Math.floor(random() * 26)) },
  // Characters from the 3,500 after 一 (U+4E00), where the common ones are, plus the paragraph's own: the scan walks into words often.
  chinese: { paragraph: CHINESE_PARAGRAPH, word: (random: () => number) => randomWord(random, 2, 3, () => chineseUnit(random)) },
};

/**
 * CPU of the prompt check on one request, in µs: a 10 K-character chat prompt against 10,000
 * words that it does not contain (the worst case: the whole prompt is scanned). Measured in
 * process (bench/sensitive-check-child.ts, which does nothing else), after a warm-up (long
 * enough for V8's optimised code to be in place), in slices of RUNS_PER_SLICE checks. The driver
 * asks for samples between its load rounds, once the servers are idle again (their leftover
 * work on the other core would slow the timing), a minute or two apart:
 * this machine has stalls seconds long in which every instruction runs slower, and slices
 * taken back to back (a tenth of a second in all) would all fall in the same one. The figure
 * is the median slice.
 */
export class SensitiveCheckTiming {
  private readonly matcher: WordMatcher;
  private readonly body: Record<string, unknown>;
  private readonly slices: number[] = [];

  constructor(language: keyof typeof LANGUAGES) {
    const { paragraph, word } = LANGUAGES[language];
    let prompt = '';
    while (prompt.length < PROMPT_UNITS) prompt += paragraph;
    prompt = prompt.slice(0, PROMPT_UNITS);
    this.matcher = WordMatcher.build(wordsNotIn(prompt.toLowerCase(), word));
    // Parsed, as the relay gets it: a flat string (a sliced or concatenated one is slower to scan).
    this.body = JSON.parse(JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: prompt }] })) as Record<string, unknown>;
    for (let i = 0; i < WARM_UP_RUNS; i++) promptHasWord(this.matcher, 'chat', this.body);
  }

  /** Times SLICES_PER_SAMPLE slices now. */
  sample(): void {
    for (let slice = 0; slice < SLICES_PER_SAMPLE; slice++) {
      const started = process.cpuUsage();
      let found = 0;
      for (let i = 0; i < RUNS_PER_SLICE; i++) if (promptHasWord(this.matcher, 'chat', this.body)) found++;
      const used = process.cpuUsage(started);
      if (found !== 0) throw new Error('the bench prompt contains a bench word');
      this.slices.push((used.user + used.system) / RUNS_PER_SLICE);
    }
  }

  /** The median slice so far, in µs per check. */
  get micros(): number {
    return Math.round(median(this.slices) * 10) / 10;
  }
}

/** WORDS distinct words (a fixed sequence), none of them in the text. */
function wordsNotIn(text: string, word: (random: () => number) => string): string[] {
  let seed = 42;
  // xorshift32: a fixed sequence with no floating-point drift.
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const words = new Set<string>();
  while (words.size < WORDS) {
    const candidate = word(random);
    if (!text.includes(candidate)) words.add(candidate);
  }
  return [...words];
}

function randomWord(random: () => number, shortest: number, lengths: number, unit: () => number): string {
  let word = '';
  const length = shortest + Math.floor(random() * lengths);
  for (let i = 0; i < length; i++) word += String.fromCharCode(unit());
  return word;
}

function chineseUnit(random: () => number): number {
  return random() < 0.3 ? CHINESE_PARAGRAPH.charCodeAt(Math.floor(random() * CHINESE_PARAGRAPH.length)) : 0x4e00 + Math.floor(random() * 3500);
}
