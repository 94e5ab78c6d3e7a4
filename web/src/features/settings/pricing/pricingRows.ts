/**
 * The pricing editor's model: the four JSON maps (ModelPrice, ModelRatio, CompletionRatio,
 * CacheRatio) seen as one row per model, and the conversions the spec gives between ratios and
 * prices per million tokens. Pure functions, so the visual editor and the unpriced-model list
 * share one set of rules.
 */

export type NumberMap = Record<string, number>;

/** The option keys the pricing tab edits; CreateCacheRatio has only the JSON editor. */
export const PRICING_MAP_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio', 'CacheRatio'] as const;
export type PricingMapKey = (typeof PRICING_MAP_KEYS)[number];
export type PricingMaps = Record<PricingMapKey, NumberMap>;

/** One model in the editor. A fixed price makes the ratios unused; absent values are `undefined`. */
export interface PricingRow {
  name: string;
  price?: number;
  ratio?: number;
  completionRatio?: number;
  cacheRatio?: number;
}

const ROW_FIELD: Record<PricingMapKey, Exclude<keyof PricingRow, 'name'>> = {
  ModelPrice: 'price',
  ModelRatio: 'ratio',
  CompletionRatio: 'completionRatio',
  CacheRatio: 'cacheRatio',
};

/** The JSON text of a map setting as an object, or null when it is not a JSON object of numbers. */
export function parseNumberMap(text: string): NumberMap | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    return Object.values(value).every((item) => typeof item === 'number') ? (value as NumberMap) : null;
  } catch {
    return null;
  }
}

/** One row per model named in any of the maps, in the order the maps first name them. */
export function rowsFromMaps(maps: PricingMaps): PricingRow[] {
  const rows = new Map<string, PricingRow>();
  for (const key of PRICING_MAP_KEYS) {
    for (const [name, value] of Object.entries(maps[key])) {
      const row = rows.get(name) ?? { name };
      row[ROW_FIELD[key]] = value;
      rows.set(name, row);
    }
  }
  return [...rows.values()];
}

/**
 * The maps a list of rows stands for. A row with a price writes only the price (the spec's rule);
 * otherwise each ratio that is set.
 */
export function mapsFromRows(rows: PricingRow[]): PricingMaps {
  const maps: PricingMaps = { ModelPrice: {}, ModelRatio: {}, CompletionRatio: {}, CacheRatio: {} };
  for (const row of rows) {
    if (row.price !== undefined) {
      maps.ModelPrice[row.name] = row.price;
      continue;
    }
    if (row.ratio !== undefined) maps.ModelRatio[row.name] = row.ratio;
    if (row.completionRatio !== undefined) maps.CompletionRatio[row.name] = row.completionRatio;
    if (row.cacheRatio !== undefined) maps.CacheRatio[row.name] = row.cacheRatio;
  }
  return maps;
}

/** Adds a row at the front, or replaces the row of the same name where it stands. */
export function upsertRow(rows: PricingRow[], row: PricingRow): PricingRow[] {
  const index = rows.findIndex((item) => item.name === row.name);
  if (index === -1) return [row, ...rows];
  return rows.map((item, i) => (i === index ? row : item));
}

/** Whether a model has neither a fixed price nor a model ratio (what the unpriced list shows). */
export function isUnpriced(maps: PricingMaps, name: string): boolean {
  return !(name in maps.ModelPrice) && !(name in maps.ModelRatio);
}

/** Case-insensitive substring filter on the model name. */
export function filterRows<T extends { name: string }>(rows: T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  return needle ? rows.filter((row) => row.name.toLowerCase().includes(needle)) : rows;
}

// The money ↔ ratio rule is shared with the server's ratio sync, so both convert alike.
export { completionRatioFromPrices, inputPriceFromRatio, outputPriceFromRatios, ratioFromInputPrice } from '@shared/price-conversion';

/** Text typed into a price or ratio box: empty, or a non-negative number. */
export function parseNumberInput(text: string): { ok: true; value: number | undefined } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  if (!/^\d+(\.\d+)?(e[+-]?\d+)?$/i.test(trimmed)) return { ok: false };
  const value = Number(trimmed);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false };
}

/** How the batch dialog fills the selected unpriced models. */
export type BatchFillMode = 'price' | 'ratio' | 'completionRatio' | 'bothRatio';

/** The rows for `names` after a batch fill; `first` is the fill value, `second` the completion ratio in bothRatio mode. */
export function batchFill(names: string[], current: Map<string, PricingRow>, mode: BatchFillMode, first: number, second?: number): PricingRow[] {
  return names.map((name) => {
    const row: PricingRow = { ...(current.get(name) ?? { name }) };
    switch (mode) {
      case 'price':
        return { name, price: first };
      case 'ratio':
        return { ...row, price: undefined, ratio: first };
      case 'completionRatio':
        return { ...row, price: undefined, completionRatio: first };
      case 'bothRatio':
        return { ...row, price: undefined, ratio: first, completionRatio: second };
    }
  });
}

/** Whether two maps hold the same entries (key order aside), so an untouched map is not saved again. */
export function sameMap(a: NumberMap, b: NumberMap): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && a[key] === b[key]);
}

/** The maps with each of `rows` written over whatever the maps held for that model. */
export function applyRows(maps: PricingMaps, rows: PricingRow[]): PricingMaps {
  const names = new Set(rows.map((row) => row.name));
  const written = mapsFromRows(rows);
  const next = {} as PricingMaps;
  for (const key of PRICING_MAP_KEYS) {
    const kept = Object.fromEntries(Object.entries(maps[key]).filter(([name]) => !names.has(name)));
    next[key] = { ...kept, ...written[key] };
  }
  return next;
}

/**
 * The maps an editor changed: those that differ both from the saved map and from what the visual
 * editor writes for it untouched, so a map nobody touched is not sent again merely because the
 * editor normalised it (a fixed-price model's unused ratios dropped).
 */
export function changedMaps(saved: PricingMaps, next: PricingMaps): Partial<PricingMaps> {
  const untouched = mapsFromRows(rowsFromMaps(saved));
  const changed: Partial<PricingMaps> = {};
  for (const key of PRICING_MAP_KEYS) if (!sameMap(saved[key], next[key]) && !sameMap(untouched[key], next[key])) changed[key] = next[key];
  return changed;
}
