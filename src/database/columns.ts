import { Column, ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * MySQL hands BIGINT and SUM() back as strings; quota is an integer that fits a JS number
 * exactly (below 2^53), so we read it as a number everywhere.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

export function BigIntColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: bigintAsNumber, default: 0, ...options });
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Quota is exact only while it fits a JS number's integers. */
export const MAX_QUOTA = Number.MAX_SAFE_INTEGER;
