import { StorageKey } from './storage';

const DEFAULT_QUOTA_PER_UNIT = 500000;

export function quotaPerUnit(): number {
  const value = Number(localStorage.getItem(StorageKey.quotaPerUnit));
  return value > 0 ? value : DEFAULT_QUOTA_PER_UNIT;
}

function displayInCurrency(): boolean {
  return localStorage.getItem(StorageKey.displayInCurrency) !== 'false';
}

/** Quota as currency (quota / quota per unit, two decimals) or, when currency display is off, the raw count. */
export function renderQuota(quota: number): string {
  if (displayInCurrency()) {
    return `$${(quota / quotaPerUnit()).toFixed(2)}`;
  }
  return renderNumber(quota);
}

/** Large counts abbreviate: k above ten thousand, M above a million, B above a billion. */
export function renderNumber(value: number): string {
  if (value >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return String(value);
}
