import type { AuditFieldChange } from '../audit/audit.wire';
import type { NumberMap } from '../options/option-definitions';
import type { PriceFields } from './upstream-prices';
import type { RatioSyncDiffRequest, RatioSyncField, RatioSyncFieldDiff, RatioSyncPick, RatioSyncRow } from './ratio-sync.wire';

/** The price map (setting) each field lives in. */
export const FIELD_OPTION_KEYS = {
  model_price: 'ModelPrice',
  model_ratio: 'ModelRatio',
  completion_ratio: 'CompletionRatio',
  cache_ratio: 'CacheRatio',
  create_cache_ratio: 'CreateCacheRatio',
} as const satisfies Record<RatioSyncField, string>;
export type PriceMapKey = (typeof FIELD_OPTION_KEYS)[RatioSyncField];

/** Fields in the order rows show them. */
export const RATIO_SYNC_FIELDS = Object.keys(FIELD_OPTION_KEYS) as RatioSyncField[];
/** The per-token fields, dropped when the model goes to a fixed price. */
const RATIO_FIELDS: readonly RatioSyncField[] = ['model_ratio', 'completion_ratio', 'cache_ratio', 'create_cache_ratio'];
/** The ratios the pricing editor clears when a model switches to a fixed price. */
const CLEARED_BY_FIXED_PRICE: readonly RatioSyncField[] = ['model_ratio', 'completion_ratio'];
/** Multiples a model without an entry is billed at 1 (PricingService): an upstream 1 changes nothing. */
const BILLED_AS_ONE_WHEN_UNSET = new Set<RatioSyncField>(['completion_ratio', 'cache_ratio', 'create_cache_ratio']);

/** The local price maps, by field. */
export type PriceMaps = Record<RatioSyncField, NumberMap>;

/** Equal up to float noise from conversions done elsewhere. */
function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function compareField(field: RatioSyncField, current: number | undefined, upstream: number): RatioSyncFieldDiff {
  if (current === undefined) {
    const status = BILLED_AS_ONE_WHEN_UNSET.has(field) && sameNumber(upstream, 1) ? 'same' : 'added';
    return { field, current: null, upstream, status };
  }
  return { field, current, upstream, status: sameNumber(current, upstream) ? 'same' : 'changed' };
}

/**
 * Each field the source sets, against the value here. A source that bills a model per call
 * clears its ratios here; one that bills it per token clears its fixed price here (which would
 * otherwise win over the synced ratios). A field the source does not give is left alone.
 */
function diffModel(local: PriceMaps, model: string, upstream: PriceFields): RatioSyncFieldDiff[] {
  const fields: RatioSyncFieldDiff[] = [];
  const removed = (field: RatioSyncField) => {
    const current = local[field][model];
    if (current !== undefined) fields.push({ field, current, upstream: null, status: 'removed' });
  };
  if (upstream.model_price !== undefined) {
    fields.push(compareField('model_price', local.model_price[model], upstream.model_price));
    CLEARED_BY_FIXED_PRICE.forEach(removed);
  } else {
    for (const field of RATIO_FIELDS) {
      const value = upstream[field];
      if (value !== undefined) fields.push(compareField(field, local[field][model], value));
    }
    removed('model_price');
  }
  return fields.sort((a, b) => RATIO_SYNC_FIELDS.indexOf(a.field) - RATIO_SYNC_FIELDS.indexOf(b.field));
}

/** One row per model the source prices, sorted by name. */
export function diffPrices(local: PriceMaps, upstream: ReadonlyMap<string, PriceFields>, served: ReadonlySet<string>): RatioSyncRow[] {
  const rows: RatioSyncRow[] = [];
  for (const [model, prices] of upstream) {
    const fields = diffModel(local, model, prices);
    const pricedHere = model in local.model_price || model in local.model_ratio;
    const status = !pricedHere ? 'new' : fields.some((field) => field.status !== 'same') ? 'changed' : 'same';
    rows.push({ model, status, served: served.has(model), fields });
  }
  return rows.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

/** The diff view's filters; each one given narrows the rows further. */
export function filterRows(rows: RatioSyncRow[], filters: Omit<RatioSyncDiffRequest, 'source'>): RatioSyncRow[] {
  return rows.filter(
    (row) => (!filters.only_changed || row.status !== 'same') && (!filters.only_new || row.status === 'new') && (!filters.only_served || row.served),
  );
}

/** The maps after the picks, only those that changed, and the changed entries as the audit log records them. */
export interface AppliedPicks {
  maps: Partial<Record<PriceMapKey, NumberMap>>;
  changes: Record<string, AuditFieldChange>;
  models: number;
}

/** Writes each picked value over the local maps (null removes the entry). */
export function applyPicks(local: PriceMaps, picks: RatioSyncPick[]): AppliedPicks {
  const next = new Map<RatioSyncField, NumberMap>();
  const from: Partial<Record<PriceMapKey, Record<string, number | null>>> = {};
  const to: Partial<Record<PriceMapKey, Record<string, number | null>>> = {};
  const changedModels = new Set<string>();
  for (const { model, fields } of picks) {
    for (const field of RATIO_SYNC_FIELDS) {
      const value = fields[field];
      if (value === undefined) continue;
      const map = next.get(field) ?? { ...local[field] };
      const current = map[model];
      if (value === null ? current === undefined : current === value) continue;
      if (value === null) delete map[model];
      else map[model] = value;
      next.set(field, map);
      const key = FIELD_OPTION_KEYS[field];
      (from[key] ??= {})[model] = current ?? null;
      (to[key] ??= {})[model] = value;
      changedModels.add(model);
    }
  }
  const maps: AppliedPicks['maps'] = {};
  const changes: AppliedPicks['changes'] = {};
  for (const [field, map] of next) {
    const key = FIELD_OPTION_KEYS[field];
    maps[key] = map;
    changes[key] = { from: from[key], to: to[key] };
  }
  return { maps, changes, models: changedModels.size };
}
