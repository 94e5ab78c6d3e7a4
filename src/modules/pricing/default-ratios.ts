/**
 * Prices shipped with a fresh install, so common models bill correctly out of the box.
 * model ratio = USD per 1M input tokens / 2; completion ratio = output price / input price;
 * cache ratio = cached-input price / input price. Fixed per-request prices are in USD.
 */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-4o': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-3.5-turbo': 0.25,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
};

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  'gpt-4o': 4,
  'gpt-4o-mini': 4,
  'gpt-3.5-turbo': 3,
};

export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  'gpt-4o': 0.5,
  'gpt-4o-mini': 0.5,
};

export const DEFAULT_MODEL_PRICE: Record<string, number> = {};
