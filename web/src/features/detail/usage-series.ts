import type { Granularity, QuotaDataView } from './api';

const HOUR = 3600;
const DAY = 86_400;
const STEP: Record<Granularity, number> = { hour: HOUR, day: DAY, week: 7 * DAY };
/** The server's week buckets start on Monday 00:00 UTC (unix time 0 was a Thursday). */
const WEEK_SHIFT = 4 * DAY;
/** Models shown on their own in the stacked chart; the rest are summed as "other". */
export const TOP_MODELS = 8;
export const OTHER_MODELS = '__other__';

export interface UsageSeries {
  /** Bucket starts (unix seconds), every bucket of the window, empty ones included. */
  buckets: number[];
  /** Model → quota per bucket, for the top models and OTHER_MODELS. */
  quotaByModel: Map<string, number[]>;
  tokens: number[];
  calls: number[];
  /** Calls per model over the window, most first. */
  callsByModel: { model: string; calls: number }[];
  totals: { quota: number; calls: number; tokens: number };
}

export function bucketStart(seconds: number, granularity: Granularity): number {
  if (granularity === 'week') return seconds - ((seconds - WEEK_SHIFT) % STEP.week);
  return seconds - (seconds % STEP[granularity]);
}

/** Lays the server's rows out on a continuous time axis, ready for the charts. */
export function buildUsageSeries(rows: QuotaDataView[], start: number, end: number, granularity: Granularity): UsageSeries {
  const step = STEP[granularity];
  const buckets: number[] = [];
  for (let time = bucketStart(start, granularity); time <= end; time += step) buckets.push(time);
  const index = new Map(buckets.map((time, position) => [time, position]));

  const callsPerModel = new Map<string, number>();
  const quotaPerModel = new Map<string, number>();
  for (const row of rows) {
    callsPerModel.set(row.model_name, (callsPerModel.get(row.model_name) ?? 0) + row.count);
    quotaPerModel.set(row.model_name, (quotaPerModel.get(row.model_name) ?? 0) + row.quota);
  }
  const topModels = new Set([...quotaPerModel.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP_MODELS).map(([model]) => model));

  // Most costly first, so the legend and the colours follow what matters.
  const quotaByModel = new Map<string, number[]>([...topModels].map((model) => [model, buckets.map(() => 0)]));
  const tokens = buckets.map(() => 0);
  const calls = buckets.map(() => 0);
  const totals = { quota: 0, calls: 0, tokens: 0 };
  for (const row of rows) {
    totals.quota += row.quota;
    totals.calls += row.count;
    totals.tokens += row.token_used;
    const position = index.get(row.created_at);
    if (position === undefined) continue;
    const model = topModels.has(row.model_name) ? row.model_name : OTHER_MODELS;
    let series = quotaByModel.get(model);
    if (!series) quotaByModel.set(model, (series = buckets.map(() => 0)));
    series[position] += row.quota;
    tokens[position] += row.token_used;
    calls[position] += row.count;
  }
  const callsByModel = [...callsPerModel.entries()].map(([model, count]) => ({ model, calls: count })).sort((a, b) => b.calls - a.calls);
  return { buckets, quotaByModel, tokens, calls, callsByModel, totals };
}
