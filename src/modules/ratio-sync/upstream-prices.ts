import type { MessageCode, MessageParams } from '../../common/i18n/catalogue';
import type { ModelMetaFromSource } from '../models/model-meta.service';
import { isRatio } from '../options/option-definitions';
import { multipleOfInputPrice, ratioFromInputPrice } from '../pricing/price-conversion';
import type { RatioSyncField, RatioSyncFormat, RatioSyncSkipReason, RatioSyncSourceKind } from './ratio-sync.wire';
import { QUOTA_TYPE_PER_CALL } from '../pricing/pricing.wire';

/** A model's prices as a source gives them: a fixed `model_price`, or a `model_ratio` with its multiples. */
export type PriceFields = Partial<Record<RatioSyncField, number>>;

/** What a source prices, read into this gateway's fields. */
export interface UpstreamPrices {
  format: RatioSyncFormat;
  models: Map<string, PriceFields>;
  skipped: { model: string; reason: RatioSyncSkipReason }[];
  /** Model metadata the source carries (pricing lists and price lists), one entry per model that has some. */
  meta: ModelMetaFromSource[];
}

/** The source's answer cannot be read; the service adds the host to the message. */
export class UnreadableSourceError extends Error {
  constructor(
    readonly code: MessageCode,
    readonly params: MessageParams = {},
  ) {
    super(code);
    this.name = 'UnreadableSourceError';
  }
}

/** Field names of new-api's /api/ratio_config maps → ours (the same names). */
const RATIO_CONFIG_FIELDS: readonly RatioSyncField[] = ['model_ratio', 'completion_ratio', 'cache_ratio', 'create_cache_ratio', 'model_price'];
/** Option keys of a one-api (or new-api, or this gateway) option list → our fields. */
const OPTION_KEY_FIELDS: Record<string, RatioSyncField> = {
  ModelRatio: 'model_ratio',
  CompletionRatio: 'completion_ratio',
  CacheRatio: 'cache_ratio',
  CreateCacheRatio: 'create_cache_ratio',
  ModelPrice: 'model_price',
};
/** More models than any real price table holds; a longer list is not a price table. */
const MAX_MODELS = 50_000;
const MAX_MODEL_NAME = 191;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A model name as the price maps can hold it (`__proto__` would not be a key there). */
const isUsableName = (name: string): boolean => name.trim() !== '' && name.length <= MAX_MODEL_NAME && name !== '__proto__';
export const isModelName = (value: unknown): value is string => typeof value === 'string' && isUsableName(value);

/** Reads a fetched answer of the given kind of source. */
export function readSource(kind: RatioSyncSourceKind, answer: unknown): UpstreamPrices {
  return kind === 'price_list' ? readPriceList(answer) : readGatewayAnswer(answer);
}

/**
 * A gateway's answer, in the `{success, message, data}` envelope (or bare, as static ratio files
 * are published): `data` a list of pricing rows (this family's and new-api's /api/pricing), an
 * object of ratio maps (new-api's /api/ratio_config) or a list of `{key, value}` options
 * (one-api's /api/option/, the maps as JSON text).
 */
export function readGatewayAnswer(answer: unknown): UpstreamPrices {
  if (!isObject(answer)) throw new UnreadableSourceError('ratio_sync.unknown_format');
  if (answer.success === false) throw new UnreadableSourceError('ratio_sync.upstream_failed', { message: String(answer.message ?? '').slice(0, 200) });
  const data = 'data' in answer ? answer.data : answer;
  if (Array.isArray(data)) {
    if (data.length > MAX_MODELS) throw new UnreadableSourceError('ratio_sync.unknown_format');
    if (data.every((row) => isObject(row) && typeof row.model_name === 'string')) return readPricingList(data as Record<string, unknown>[], answer.vendors);
    if (data.length > 0 && data.every((row) => isObject(row) && typeof row.key === 'string' && typeof row.value === 'string')) return readOptionList(data as { key: string; value: string }[]);
  } else if (isObject(data) && RATIO_CONFIG_FIELDS.some((field) => isObject(data[field]))) {
    return fromMaps('ratio_config', Object.fromEntries(RATIO_CONFIG_FIELDS.map((field) => [field, data[field]])));
  }
  throw new UnreadableSourceError('ratio_sync.unknown_format');
}

/**
 * Rows of /api/pricing: quota_type 1 bills `model_price` per call, otherwise the ratios. Their
 * metadata too: `vendor_id` names an entry of the answer's top-level `vendors` list.
 */
function readPricingList(rows: Record<string, unknown>[], vendorList: unknown): UpstreamPrices {
  const prices: UpstreamPrices = { format: 'pricing_list', models: new Map(), skipped: [], meta: [] };
  const vendors = new Map<unknown, Record<string, unknown>>(Array.isArray(vendorList) ? vendorList.filter(isObject).map((vendor) => [vendor.id, vendor]) : []);
  for (const row of rows) {
    const model = row.model_name as string;
    if (!isUsableName(model)) {
      prices.skipped.push({ model: model.slice(0, MAX_MODEL_NAME), reason: 'invalid_value' });
      continue;
    }
    const vendor = row.vendor_id ? vendors.get(row.vendor_id) : undefined;
    addMeta(prices, { ...row, model, vendor: vendor?.name ?? row.vendor, vendor_icon: vendor?.icon });
    // This family marks a model nobody priced (its ratio is only the fallback a self-use gateway bills).
    if (row.price_set === false) {
      prices.skipped.push({ model, reason: 'unpriced' });
      continue;
    }
    const fields: Record<string, unknown> =
      row.quota_type === QUOTA_TYPE_PER_CALL
        ? { model_price: row.model_price }
        : { model_ratio: row.model_ratio, completion_ratio: row.completion_ratio, cache_ratio: row.cache_ratio, create_cache_ratio: row.create_cache_ratio };
    addModel(prices, model, fields);
  }
  return prices;
}

function readOptionList(options: { key: string; value: string }[]): UpstreamPrices {
  const maps: Record<string, unknown> = {};
  for (const { key, value } of options) {
    const field = OPTION_KEY_FIELDS[key];
    if (!field) continue;
    try {
      maps[field] = JSON.parse(value);
    } catch {
      throw new UnreadableSourceError('ratio_sync.unknown_format');
    }
  }
  if (Object.keys(maps).length === 0) throw new UnreadableSourceError('ratio_sync.unknown_format');
  return fromMaps('option_list', maps);
}

/** Maps by field (`{model_ratio: {model: 1.5}, …}`) → one entry per model that has a price or a ratio. */
function fromMaps(format: RatioSyncFormat, maps: Record<string, unknown>): UpstreamPrices {
  const byModel = new Map<string, Record<string, unknown>>();
  for (const [field, map] of Object.entries(maps)) {
    if (map === undefined) continue;
    if (!isObject(map)) throw new UnreadableSourceError('ratio_sync.unknown_format');
    for (const [model, value] of Object.entries(map)) byModel.set(model, { ...byModel.get(model), [field]: value });
  }
  if (byModel.size > MAX_MODELS) throw new UnreadableSourceError('ratio_sync.unknown_format');
  const prices: UpstreamPrices = { format, models: new Map(), skipped: [], meta: [] };
  for (const [model, fields] of byModel) {
    if (!isUsableName(model)) {
      prices.skipped.push({ model: model.slice(0, MAX_MODEL_NAME), reason: 'invalid_value' });
      continue;
    }
    // A fixed price wins over ratios, as it does when billing.
    addModel(prices, model, fields.model_price !== undefined ? { model_price: fields.model_price } : fields);
  }
  return prices;
}

/** Keeps a model that has a price or a ratio, with every field a valid number; names the reason otherwise. */
function addModel(prices: UpstreamPrices, model: string, fields: Record<string, unknown>): void {
  const given = Object.entries(fields).filter(([, value]) => value !== undefined && value !== null);
  if (!given.some(([field]) => field === 'model_price' || field === 'model_ratio')) {
    prices.skipped.push({ model, reason: 'no_price' });
    return;
  }
  if (!given.every(([, value]) => isRatio(value))) {
    prices.skipped.push({ model, reason: 'invalid_value' });
    return;
  }
  prices.models.set(model, Object.fromEntries(given) as PriceFields);
}

/** Keeps what a source says about a model, as far as it is shaped like metadata; fillFromSource checks the values. */
function addMeta(prices: UpstreamPrices, fields: Record<string, unknown>): void {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  // A list as new-api sends it (a comma string) or as this family does (strings).
  const list = (value: unknown) => {
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    const words = items.map((item) => item.trim()).filter(Boolean);
    return words.length > 0 ? words : undefined;
  };
  const meta: ModelMetaFromSource = {
    model_name: fields.model as string,
    description: text(fields.description),
    vendor: text(fields.vendor),
    vendor_icon: text(fields.vendor_icon),
    tags: list(fields.tags),
    context_length: count(fields.context_length),
    max_output: count(fields.max_output),
    input_modalities: list(fields.input_modalities),
    output_modalities: list(fields.output_modalities),
    icon: text(fields.icon),
  };
  if (Object.entries(meta).some(([key, value]) => key !== 'model_name' && key !== 'vendor_icon' && value !== undefined)) prices.meta.push(meta);
}

/** A price list's token prices, USD per million tokens. */
const TOKEN_PRICE_KEYS = ['input', 'output', 'cache_read', 'cache_write'] as const;
/** A price list's optional metadata of a model. */
const META_KEYS = ['description', 'vendor', 'tags', 'context_length', 'max_output'] as const;
const ENTRY_KEYS = new Set<string>(['model', ...TOKEN_PRICE_KEYS, 'per_request', 'per_unit', ...META_KEYS]);
const isPositiveInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/**
 * A published price list (the README's schema): `{currency?: "USD", models: [{model, input?,
 * output?, cache_read?, cache_write?, per_request?, per_unit?: {price, unit}, description?, vendor?,
 * tags?, context_length?, max_output?}]}`. Token prices become ratios by the pricing editor's
 * rule; `per_request` is the fixed price; the rest is model metadata. Any entry that
 * breaks the schema refuses the whole list, naming where.
 */
export function readPriceList(answer: unknown): UpstreamPrices {
  const invalid = (path: string) => new UnreadableSourceError('ratio_sync.price_list_invalid', { path });
  if (!isObject(answer)) throw invalid('(root)');
  if (answer.currency !== undefined && answer.currency !== 'USD') throw invalid('currency');
  const entries = answer.models;
  if (!Array.isArray(entries) || entries.length > MAX_MODELS) throw invalid('models');
  const prices: UpstreamPrices = { format: 'price_list', models: new Map(), skipped: [], meta: [] };
  entries.forEach((entry: unknown, index) => {
    const at = `models[${index}]`;
    if (!isObject(entry)) throw invalid(at);
    if (!isModelName(entry.model)) throw invalid(`${at}.model`);
    const unknownKey = Object.keys(entry).find((key) => !ENTRY_KEYS.has(key));
    if (unknownKey) throw invalid(`${at}.${unknownKey}`);
    for (const key of [...TOKEN_PRICE_KEYS, 'per_request'] as const) if (entry[key] !== undefined && !isRatio(entry[key])) throw invalid(`${at}.${key}`);
    const perUnit = entry.per_unit;
    if (perUnit !== undefined && !(isObject(perUnit) && isRatio(perUnit.price) && typeof perUnit.unit === 'string' && perUnit.unit.trim() !== '')) throw invalid(`${at}.per_unit`);
    const tokenPriced = TOKEN_PRICE_KEYS.some((key) => entry[key] !== undefined);
    if (entry.per_request !== undefined && tokenPriced) throw invalid(`${at}.per_request`);
    if (tokenPriced && entry.input === undefined) throw invalid(`${at}.input`);
    if (!tokenPriced && entry.per_request === undefined && perUnit === undefined) throw invalid(at);
    if (prices.models.has(entry.model)) throw invalid(`${at}.model`);
    for (const key of ['description', 'vendor'] as const) if (entry[key] !== undefined && typeof entry[key] !== 'string') throw invalid(`${at}.${key}`);
    if (entry.tags !== undefined && !(Array.isArray(entry.tags) && entry.tags.every((tag) => typeof tag === 'string'))) throw invalid(`${at}.tags`);
    for (const key of ['context_length', 'max_output'] as const) if (entry[key] !== undefined && !isPositiveInteger(entry[key])) throw invalid(`${at}.${key}`);
    addMeta(prices, entry);

    if (entry.per_request !== undefined) prices.models.set(entry.model, { model_price: entry.per_request as number });
    else if (tokenPriced) addTokenPrices(prices, entry.model, entry as Record<(typeof TOKEN_PRICE_KEYS)[number], number | undefined>);
    // Per-unit media prices (per image, per second) have no price map here yet.
    else prices.skipped.push({ model: entry.model, reason: 'per_unit' });
  });
  return prices;
}

function addTokenPrices(prices: UpstreamPrices, model: string, entry: Record<(typeof TOKEN_PRICE_KEYS)[number], number | undefined>): void {
  const input = entry.input ?? 0;
  // An output, cache read or cache write price against a free input cannot be a multiple of it.
  const others = [entry.output, entry.cache_read, entry.cache_write];
  if (input === 0 && others.some((price) => price !== undefined && price > 0)) {
    prices.skipped.push({ model, reason: 'output_without_input' });
    return;
  }
  const fields: PriceFields = { model_ratio: ratioFromInputPrice(input) };
  const multiples: [RatioSyncField, number | undefined][] = [
    ['completion_ratio', entry.output],
    ['cache_ratio', entry.cache_read],
    ['create_cache_ratio', entry.cache_write],
  ];
  for (const [field, price] of multiples) {
    const ratio = price === undefined ? undefined : multipleOfInputPrice(input, price);
    if (ratio !== undefined) fields[field] = ratio;
  }
  if (!Object.values(fields).every(isRatio)) {
    prices.skipped.push({ model, reason: 'invalid_value' });
    return;
  }
  prices.models.set(model, fields);
}
