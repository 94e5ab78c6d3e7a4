/**
 * Token counts of one answer, in OpenAI's sense: `promptTokens` counts every input token,
 * cached and cache-written ones included; `completionTokens` counts every output token,
 * reasoning included. The detail fields say how many of those were billed differently.
 */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's cache (billed at the cache ratio). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (billed at the cache-write ratio). */
  cacheWriteTokens: number;
  /** Completion tokens spent thinking. */
  reasoningTokens: number;
  audioInputTokens: number;
  audioOutputTokens: number;
  imageInputTokens: number;
  imageOutputTokens: number;
}

/** What one event or answer reports: only the counts it carries. */
export type UsageReport = Partial<Usage>;

const USAGE_FIELDS: readonly (keyof Usage)[] = [
  'promptTokens',
  'completionTokens',
  'cachedTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'audioInputTokens',
  'audioOutputTokens',
  'imageInputTokens',
  'imageOutputTokens',
];

export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, audioInputTokens: 0, audioOutputTokens: 0, imageInputTokens: 0, imageOutputTokens: 0 };
}

/**
 * Collects usage across the events of one answer. Providers report counts piecemeal (Claude:
 * prompt and cache counts in message_start, output in message_delta) and each report carries
 * running totals, so a count a later event names replaces the earlier one, and a count it does
 * not name is kept: never overwritten wholesale.
 */
export class UsageMeter {
  private usage?: Usage;

  add(report: UsageReport | undefined): void {
    if (!report) return;
    const usage = (this.usage ??= emptyUsage());
    for (const field of USAGE_FIELDS) {
      const value = report[field];
      if (value !== undefined) usage[field] = value;
    }
  }

  /** The collected usage, or undefined when nothing reported any. */
  get total(): Usage | undefined {
    return this.usage;
  }
}

/** A finite non-negative count, else 0: upstream numbers are not trusted blindly. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** A report as a whole usage (counts it does not name are 0), or undefined without one. */
export function fullUsage(report: UsageReport | undefined): Usage | undefined {
  return report ? { ...emptyUsage(), ...report } : undefined;
}
