// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.
import type { PublicModelMeta, PublicVendor } from '../models/model-meta.wire';

/** Billing type: pay per token usage, or pay per call (a fixed price). */
export const QUOTA_TYPE_PER_TOKEN = 0;
export const QUOTA_TYPE_PER_CALL = 1;
export type QuotaType = typeof QUOTA_TYPE_PER_TOKEN | typeof QUOTA_TYPE_PER_CALL;

/** One row of the public pricing table, with the model's metadata (empty values where none is set). */
export interface PricingRow extends PublicModelMeta {
  model_name: string;
  quota_type: QuotaType;
  model_ratio: number;
  completion_ratio: number;
  /** USD per call for quota_type 1; -1 otherwise. */
  model_price: number;
  /** Groups in which an enabled channel serves the model. */
  enable_groups: string[];
  /**
   * False: neither a fixed price nor a ratio is set. The relay refuses the model unless self-use
   * mode is on or the user accepts unpriced models, and then bills it at the fallback ratio shown.
   */
  price_set: boolean;
  /** The per-unit prices (USD) that bill the model instead of its ratio or fixed price; absent when it has none. */
  media_prices?: MediaPrices;
}

/**
 * A model's entries in the media price tables. Each is billed as count × price × group ratio.
 * `image`: size → USD per image, or size → quality → USD per image ("*": any other);
 * `audio`: USD per second of input (transcription) and output (speech);
 * `video`: resolution → USD per second; `call`: USD per call of a task action (mj_imagine, suno_music).
 */
export interface MediaPrices {
  image?: Record<string, number | Record<string, number>>;
  audio?: { input?: number; output?: number };
  video?: Record<string, number>;
  call?: number;
}

/** GET /api/pricing answers `models` as the envelope's data and the two maps beside it. */
export interface PricingPage {
  models: PricingRow[];
  /** Ratios of the groups the viewer may use (the viewer's own overrides applied). */
  group_ratio: Record<string, number>;
  /** Groups the viewer may use → description; anonymous viewers get UserUsableGroups. */
  usable_group: Record<string, string>;
  /** The vendors the rows' vendor_id name. */
  vendors: PublicVendor[];
}
