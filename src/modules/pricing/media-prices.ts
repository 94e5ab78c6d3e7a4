import { MIDJOURNEY_PLATFORM, MJ_ACTIONS, modelForAction } from '../tasks/midjourney/midjourney-actions';
import type { MediaPrices } from './pricing.wire';

/**
 * Per-unit prices for media, declared beside the ratio maps (ImagePrices, AudioPrices,
 * VideoPrices, TaskActionPrices). Every price is in USD, like ModelPrice, and becomes quota as
 * `count × price × QuotaPerUnit × group ratio` (billing-formula's mediaQuota). A model with an
 * entry here is billed from it; a model without one keeps ModelPrice / ModelRatio.
 */

/** The key that matches a size, quality or resolution the request does not name, or one the table does not list. */
export const ANY_VARIANT = '*';

/** Model → size ("1024x1024", or "*") → USD per image, or → quality ("standard", "hd", "*") → USD per image. */
export type ImagePrices = Record<string, Record<string, number | Record<string, number>>>;
/** USD per second of audio: `input` seconds uploaded (transcription, translation), `output` seconds generated (speech). */
export interface AudioPrice {
  input?: number;
  output?: number;
}
/** Model → its audio prices. */
export type AudioPrices = Record<string, AudioPrice>;
/** Model → resolution ("720p", "1280x720", or "*") → USD per second of video. */
export type VideoPrices = Record<string, Record<string, number>>;
/** Task platform → action → USD per call. */
export type TaskActionPrices = Record<string, Record<string, number>>;

/** The task platforms a TaskActionPrices table may name, and their actions (as each relay names them). */
export const TASK_PRICE_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  [MIDJOURNEY_PLATFORM]: MJ_ACTIONS,
  suno: ['MUSIC', 'LYRICS'],
};

/** The model name each task action is served and listed under (mj_imagine, swap_face, suno_music), by platform. */
const TASK_ACTION_MODELS = new Map<string, { platform: string; action: string }>([
  ...MJ_ACTIONS.map((action): [string, { platform: string; action: string }] => [modelForAction(action), { platform: MIDJOURNEY_PLATFORM, action }]),
  ...TASK_PRICE_ACTIONS.suno.map((action): [string, { platform: string; action: string }] => [`suno_${action.toLowerCase()}`, { platform: 'suno', action }]),
]);

/** The media tables, as the options hold them. */
export interface MediaPriceTables {
  ImagePrices: ImagePrices;
  AudioPrices: AudioPrices;
  VideoPrices: VideoPrices;
  TaskActionPrices: TaskActionPrices;
}

/** A model's entries in the media tables, for the pricing page; undefined when it has none. */
export function mediaPricesOf(model: string, tables: MediaPriceTables): MediaPrices | undefined {
  const prices: MediaPrices = {};
  if (Object.prototype.hasOwnProperty.call(tables.ImagePrices, model)) prices.image = tables.ImagePrices[model];
  if (Object.prototype.hasOwnProperty.call(tables.AudioPrices, model)) prices.audio = tables.AudioPrices[model];
  if (Object.prototype.hasOwnProperty.call(tables.VideoPrices, model)) prices.video = tables.VideoPrices[model];
  const task = TASK_ACTION_MODELS.get(model);
  const call = task && tables.TaskActionPrices[task.platform]?.[task.action];
  if (call !== undefined) prices.call = call;
  return Object.keys(prices).length > 0 ? prices : undefined;
}

/** Upper bound of one unit price (USD): far above any real one, low enough that a bill stays a finite number. */
const MAX_UNIT_PRICE = 1_000_000;
/** Longest size, quality, resolution or model key: the options table's key column width. */
const MAX_KEY_LENGTH = 191;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isUnitPrice = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_UNIT_PRICE;

/** A path of keys as the error names it: "dall-e-3 → 1024x1024 → hd". */
const describePath = (path: string[]): string => (path.length === 0 ? '(top level)' : path.join(' → '));

/**
 * Where a map nested `depth` levels deep, with prices at the bottom, first breaks its shape
 * (as a path of keys), or undefined when it is well formed.
 */
function nestedProblem(value: unknown, depth: number, path: string[] = []): string | undefined {
  if (depth === 0) return isUnitPrice(value) ? undefined : describePath(path);
  if (!isPlainObject(value)) return describePath(path);
  for (const [key, inner] of Object.entries(value)) {
    if (key.trim() === '' || key.length > MAX_KEY_LENGTH) return describePath([...path, JSON.stringify(key)]);
    const problem = nestedProblem(inner, depth - 1, [...path, key]);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Model → size → price, or model → size → quality → price. */
export function imagePricesProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return describePath([]);
  for (const [model, sizes] of Object.entries(value)) {
    if (!isPlainObject(sizes) || model.trim() === '' || model.length > MAX_KEY_LENGTH) return describePath([JSON.stringify(model).slice(1, -1)]);
    for (const [size, price] of Object.entries(sizes)) {
      const problem = isUnitPrice(price) ? undefined : nestedProblem(price, 1, [model, size]);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** Model → {input?, output?}, at least one of them. */
export function audioPricesProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return describePath([]);
  for (const [model, price] of Object.entries(value)) {
    if (!isPlainObject(price) || Object.keys(price).length === 0) return model;
    for (const [direction, perSecond] of Object.entries(price)) {
      if ((direction !== 'input' && direction !== 'output') || !isUnitPrice(perSecond)) return describePath([model, direction]);
    }
  }
  return undefined;
}

/** Model → resolution → price. */
export function videoPricesProblem(value: unknown): string | undefined {
  return nestedProblem(value, 2);
}

/** Platform → action → price, naming only the platforms and actions the task relays know. */
export function taskActionPricesProblem(value: unknown): string | undefined {
  const shape = nestedProblem(value, 2);
  if (shape !== undefined) return shape;
  for (const [platform, actions] of Object.entries(value as Record<string, Record<string, number>>)) {
    const known = TASK_PRICE_ACTIONS[platform];
    if (!known) return platform;
    const unknown = Object.keys(actions).find((action) => !known.includes(action));
    if (unknown !== undefined) return describePath([platform, unknown]);
  }
  return undefined;
}

/** The price of one image of `size` and `quality` (either may be absent from the request), or undefined when the table has none. */
export function imageUnitPrice(sizes: ImagePrices[string], size: string | undefined, quality: string | undefined): number | undefined {
  const bySize = variant(sizes, size);
  if (bySize === undefined || typeof bySize === 'number') return bySize;
  return variant(bySize, quality);
}

/** The exact entry, else the "*" entry. */
function variant<T>(table: Record<string, T>, key: string | undefined): T | undefined {
  if (key !== undefined && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  return Object.prototype.hasOwnProperty.call(table, ANY_VARIANT) ? table[ANY_VARIANT] : undefined;
}

/** The price per second of video at `resolution`, or undefined when the table has none. */
export function videoUnitPrice(resolutions: VideoPrices[string], resolution: string | undefined): number | undefined {
  return variant(resolutions, resolution);
}
