import type { ReadyMessage } from './process-stats';
import { SensitiveCheckTiming } from './sensitive-check';

/** What the child answers to 'sample': the median slice so far of each prompt, in µs per check. */
export interface SensitiveCheckMessage {
  kind: 'sensitive-check';
  english: number;
  chinese: number;
}

/**
 * The prompt check's timings, in a process of their own that does nothing else: the driver's
 * heap, churned by the load client between samples, kept V8's background collector busy
 * during the timed slices, and that CPU counted against the check.
 */
const timings = { english: new SensitiveCheckTiming('english'), chinese: new SensitiveCheckTiming('chinese') };
process.on('message', (message: unknown) => {
  if (message !== 'sample') return;
  timings.english.sample();
  timings.chinese.sample();
  const reply: SensitiveCheckMessage = { kind: 'sensitive-check', english: timings.english.micros, chinese: timings.chinese.micros };
  process.send?.(reply);
});
const ready: ReadyMessage = { kind: 'ready', port: 0 };
process.send?.(ready);
