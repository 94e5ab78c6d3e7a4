import { useMemo, useState, type ReactNode } from 'react';
import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../../components/SearchField';
import { usePaging } from '../../../components/table/PagedTablePagination';
import { filterRows, type PricingMaps } from './pricingRows';

/** What the two pricing tables get from the pricing area. */
export interface PricingTableProps {
  /** The saved maps; null while one of them is not valid JSON (the JSON editors must be fixed first). */
  maps: PricingMaps | null;
  saving: boolean;
  onSave: (next: PricingMaps) => void;
}

/** A price or ratio cell: the number, or a dash when unset. */
export const shownValue = (value: number | undefined) => (value === undefined ? '-' : String(value));

/** The model-name search and the page of a table whose rows are all in the browser. */
export function useSearchedPage<Row extends { name: string }>(rows: Row[]) {
  const [search, setSearch] = useState('');
  const { page, setPage, pageSize, setPageSize } = usePaging();
  const visible = useMemo(() => filterRows(rows, search), [rows, search]);
  return {
    pageRows: visible.slice(page * pageSize, page * pageSize + pageSize),
    search: {
      value: search,
      onChange: (value: string) => {
        setSearch(value);
        setPage(0);
      },
      onSearch: () => setPage(0),
    },
    pagination: { total: visible.length, page, pageSize, onPageChange: setPage, onPageSizeChange: setPageSize },
  };
}

interface PricingToolbarProps {
  search: ReturnType<typeof useSearchedPage>['search'];
  searchTestId: string;
  /** The table's buttons, after the search box. */
  children: ReactNode;
}

/** Search box and buttons in a row; stacked on a phone. */
export function PricingToolbar({ search, searchTestId, children }: PricingToolbarProps) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
      <SearchField label={t('settingsPricing:visual.search')} {...search} testId={searchTestId} sx={{ flex: 1 }} />
      {children}
    </Stack>
  );
}
