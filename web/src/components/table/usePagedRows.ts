import { useCallback, useEffect, useState, type SetStateAction } from 'react';
import type { ApiResult, Page } from '../../api/client';
import { usePaging } from './PagedTablePagination';

/** Asks the server for one page of rows; `page` is one-based because the list endpoints count from 1. */
export type FetchPage<Row, Query> = (query: Query, page: number, pageSize: number) => Promise<ApiResult<Page<Row>>>;

/**
 * The rows of a table the server pages: the applied query, the page, the loading flag, and a reload
 * for after an action. The page's inputs stay a draft until it calls `applyQuery`.
 *
 * `fetchPage` should keep its identity between renders (module level or `useCallback`): a new one
 * is taken to mean the rows now come from elsewhere, so the table reloads.
 */
export function usePagedRows<Row, Query>(fetchPage: FetchPage<Row, Query>, initialQuery: Query | (() => Query)) {
  const { page, setPage, pageSize, setPageSize } = usePaging();
  const [query, setQuery] = useState<Query>(initialQuery);
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [totalCapped, setTotalCapped] = useState(false);
  const [loading, setLoading] = useState(false);

  const reload = useCallback(async () => {
    setLoading(true);
    const result = await fetchPage(query, page + 1, pageSize);
    setLoading(false);
    // The API client has already toasted a failure; keeping the rows on screen beats an empty table.
    if (result.ok) {
      setRows(result.data.items ?? []);
      setTotal(result.data.total ?? 0);
      setTotalCapped(result.data.total_capped === true);
    }
  }, [fetchPage, query, page, pageSize]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Back to the first page: the page the user was on may not exist under the new query. */
  const applyQuery = useCallback((next: SetStateAction<Query>) => {
    setPage(0);
    setQuery(next);
  }, [setPage]);

  const pagination = { total, totalCapped, page, pageSize, onPageChange: setPage, onPageSizeChange: setPageSize };

  return { rows, setRows, loading, query, applyQuery, reload, pagination };
}

/**
 * For the tables whose server has a search endpoint beside the plain list: the search is only asked
 * once some filter is filled in, so the unfiltered table is the plain list.
 */
export function searchWhenFiltered<Row, Filters extends Record<string, string>>(
  list: (page: number, pageSize: number) => Promise<ApiResult<Page<Row>>>,
  search: (filters: Filters, page: number, pageSize: number) => Promise<ApiResult<Page<Row>>>,
): FetchPage<Row, Filters> {
  return (filters, page, pageSize) => (Object.values(filters).some(Boolean) ? search(filters, page, pageSize) : list(page, pageSize));
}
