import type { PricingPage as PricingData, PricingRow as PricingModel } from '@shared/pricing/pricing.wire';
import { api } from '../../api/client';

// Declared once, beside the server code that builds the answer; renamed here, where PricingPage is the page component.
export type { PricingData, PricingModel };

/** GET /api/pricing: rows in data, the group maps and the vendors beside the envelope. */
export async function fetchPricing(): Promise<PricingData | null> {
  const result = await api.get<PricingModel[]>('/api/pricing');
  if (!result.ok) return null;
  return {
    models: result.data ?? [],
    group_ratio: (result.extras.group_ratio ?? {}) as PricingData['group_ratio'],
    usable_group: (result.extras.usable_group ?? {}) as PricingData['usable_group'],
    vendors: (result.extras.vendors ?? []) as PricingData['vendors'],
  };
}

/** Pricing page filters beyond the name: a vendor id ('' every vendor, 0 those without one) and a tag ('' every tag). */
export interface PricingFilter {
  search: string;
  vendor: number | '';
  tag: string;
}

export function matchesPricingFilter(model: PricingModel, filter: PricingFilter, knownVendors: ReadonlySet<number>): boolean {
  if (!fuzzyMatch(model.model_name, filter.search)) return false;
  if (filter.vendor !== '' && (knownVendors.has(model.vendor_id) ? model.vendor_id : 0) !== filter.vendor) return false;
  return filter.tag === '' || model.tags.some((tag) => tag === filter.tag);
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
