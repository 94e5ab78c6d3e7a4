import { api } from '../../api/client';

/** Billing type: 0 per token usage, 1 per call. */
export type QuotaType = 0 | 1;

export interface PricingModel {
  model_name: string;
  quota_type: QuotaType;
  model_ratio: number;
  completion_ratio: number;
  /** USD per call for quota_type 1. */
  model_price: number;
  /** Groups in which an enabled channel serves the model. */
  enable_groups: string[];
}

export interface PricingData {
  models: PricingModel[];
  groupRatio: Record<string, number>;
  usableGroup: Record<string, string>;
}

/** GET /api/pricing: rows in data, the group maps beside the envelope. */
export async function fetchPricing(): Promise<PricingData | null> {
  const result = await api.get<PricingModel[]>('/api/pricing');
  if (!result.ok) return null;
  return {
    models: result.data ?? [],
    groupRatio: (result.extras.group_ratio ?? {}) as Record<string, number>,
    usableGroup: (result.extras.usable_group ?? {}) as Record<string, string>,
  };
}

/** Billing type first, then names starting with gpt, then alphabetical. */
export function comparePricing(a: PricingModel, b: PricingModel): number {
  if (a.quota_type !== b.quota_type) return a.quota_type - b.quota_type;
  const aGpt = a.model_name.toLowerCase().startsWith('gpt');
  const bGpt = b.model_name.toLowerCase().startsWith('gpt');
  if (aGpt !== bGpt) return aGpt ? -1 : 1;
  return a.model_name.localeCompare(b.model_name);
}

/** Case-insensitive fuzzy match: the query's characters appear in the name in order. */
export function fuzzyMatch(name: string, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const haystack = name.toLowerCase();
  let position = 0;
  for (const char of needle) {
    position = haystack.indexOf(char, position);
    if (position === -1) return false;
    position += 1;
  }
  return true;
}
