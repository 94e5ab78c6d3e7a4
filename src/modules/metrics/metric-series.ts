/**
 * Plain in-memory series the request path adds to: a Map lookup and an addition, where
 * prom-client's own `inc`/`observe` hash a label object on every call (~300 ns each). The
 * exporter reads them into prom-client's text format only when Prometheus scrapes.
 */

/** Label values, in the order of a series' label names. */
export type LabelValues = readonly string[];

/** Joins label values into one Map key; no label value we write contains this character. */
const SEPARATOR = '\u0001';

/** A counter per label set. */
export class CounterSeries {
  private readonly values = new Map<string, { labels: LabelValues; value: number }>();

  constructor(readonly labelNames: readonly string[]) {}

  /** Adds to the series of the key seriesKey made from its label values. */
  add(key: string, amount = 1): void {
    const entry = this.values.get(key);
    if (entry) entry.value += amount;
    else this.values.set(key, { labels: labelsOfKey(key), value: amount });
  }

  entries(): IterableIterator<{ labels: LabelValues; value: number }> {
    return this.values.values();
  }
}

/** A histogram per label set: counts per bucket (not cumulative; the exporter sums them), with sum and count. */
export interface HistogramEntry {
  labels: LabelValues;
  /** counts[i] observations fell at or under bounds[i] and above bounds[i-1]; the last one is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class HistogramSeries {
  private readonly values = new Map<string, HistogramEntry>();

  constructor(
    readonly labelNames: readonly string[],
    /** Upper bounds, ascending. */
    readonly bounds: readonly number[],
  ) {}

  /** Counts one observation in the series of the key seriesKey made from its label values. */
  observe(key: string, value: number): void {
    let entry = this.values.get(key);
    if (!entry) this.values.set(key, (entry = { labels: labelsOfKey(key), counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 }));
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket++;
    entry.counts[bucket]++;
    entry.sum += value;
    entry.count++;
  }

  entries(): IterableIterator<HistogramEntry> {
    return this.values.values();
  }
}

/** The Map key of a label set. */
export function seriesKey(...values: string[]): string {
  return values.join(SEPARATOR);
}

function labelsOfKey(key: string): LabelValues {
  return key.split(SEPARATOR);
}
