// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/**
 * `gateway`: another gateway's price answer (this family's or new-api's `/api/pricing`, new-api's
 * `/api/ratio_config`, one-api's option list); `price_list`: a published price list in the
 * documented JSON schema (prices in USD per million tokens, see the README).
 */
export type RatioSyncSourceKind = 'gateway' | 'price_list';

/** A configured source; the name is its identity. */
export interface RatioSyncSource {
  name: string;
  kind: RatioSyncSourceKind;
  /** The full address fetched; a gateway address without a path means its `/api/pricing`. */
  url: string;
}

/** Body of PUT /api/ratio_sync/sources: the whole list, replacing the stored one. */
export interface RatioSyncSourcesUpdate {
  sources: RatioSyncSource[];
}

/** The price fields compared and written, each kept in its own price map. */
export type RatioSyncField = 'model_ratio' | 'completion_ratio' | 'cache_ratio' | 'create_cache_ratio' | 'model_price';

/** How the answer was read: a pricing list, a ratio map, an option list (one-api) or a price list. */
export type RatioSyncFormat = 'pricing_list' | 'ratio_config' | 'option_list' | 'price_list';

/**
 * One field of one model. `added`: not set here, set upstream. `removed`: set here, and the
 * upstream bills the model the other way (a fixed price against ratios), so applying clears it.
 */
export interface RatioSyncFieldDiff {
  field: RatioSyncField;
  current: number | null;
  upstream: number | null;
  status: 'same' | 'changed' | 'added' | 'removed';
}

/** One model the source prices. */
export interface RatioSyncRow {
  model: string;
  /** `new`: no fixed price and no model ratio here yet; `changed`: some field differs; `same`: nothing to apply. */
  status: 'new' | 'changed' | 'same';
  /** Some enabled channel serves the model. */
  served: boolean;
  fields: RatioSyncFieldDiff[];
}

/** Why a model the source names is not offered. */
export type RatioSyncSkipReason = 'unpriced' | 'no_price' | 'invalid_value' | 'output_without_input' | 'per_unit';

/** Body of POST /api/ratio_sync/diff. */
export interface RatioSyncDiffRequest {
  source: string;
  /** Leave out models whose fields all match. */
  only_changed?: boolean;
  /** Only models without a fixed price or model ratio here. */
  only_new?: boolean;
  /** Only models some enabled channel serves. */
  only_served?: boolean;
}

/** Answer of POST /api/ratio_sync/diff. */
export interface RatioSyncDiff {
  source: string;
  format: RatioSyncFormat;
  /** Models the source priced in a way this gateway can bill, before the filters. */
  upstream_models: number;
  rows: RatioSyncRow[];
  skipped: { model: string; reason: RatioSyncSkipReason }[];
}

/** The values picked for one model: a number sets the field, null clears it. */
export interface RatioSyncPick {
  model: string;
  fields: Partial<Record<RatioSyncField, number | null>>;
}

/** Body of POST /api/ratio_sync/apply: the source the values came from (for the audit log) and the picked rows. */
export interface RatioSyncApplyRequest {
  source: string;
  rows: RatioSyncPick[];
}

/** Answer of POST /api/ratio_sync/apply. */
export interface RatioSyncApplyResult {
  /** Models whose prices changed. */
  models: number;
  /** The price maps written. */
  keys: string[];
  /** Picked models whose metadata the source created or filled (only fields that were empty here). */
  metadata_models: number;
}
