export interface PageQuery {
  page: number;
  pageSize: number;
  offset: number;
}

export interface Page<T> {
  page: number;
  page_size: number;
  total: number;
  items: T[];
  /** True when counting stopped at a cap: there are more than `total` (the console shows "10000+"). */
  total_capped?: boolean;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/**
 * The highest page number a query may ask for: past it the offset (page × MAX_PAGE_SIZE) would
 * leave the safe-integer range and reach the database as a float, which SQL rejects.
 * A page beyond the data answers an empty list anyway.
 */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

function positiveInt(raw: unknown, fallback: number): number {
  const value = typeof raw === 'string' ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Pages are 1-based (`p`); a page size outside 1..100 falls back to the default or the maximum. */
export function parsePageQuery(query: Record<string, unknown>, sizeParam = 'page_size'): PageQuery {
  const page = Math.min(positiveInt(query.p, 1), MAX_PAGE);
  const pageSize = Math.min(positiveInt(query[sizeParam] ?? query.page_size ?? query.size, DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function toPage<T>(query: PageQuery, total: number, items: T[], totalCapped?: boolean): Page<T> {
  return { page: query.page, page_size: query.pageSize, total, items, ...(totalCapped === undefined ? {} : { total_capped: totalCapped }) };
}

/**
 * LIKE patterns that treat the user's `%` and `_` literally. `!` is the escape character
 * because a backslash means different things in MySQL and SQLite string literals.
 */
export const LIKE_ESCAPE = "ESCAPE '!'";

export function likeContains(keyword: string): string {
  return `%${keyword.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}
