import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Checkbox, Stack, TableCell } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../../components/SearchField';
import { usePaging } from '../../../components/table/PagedTablePagination';
import { withToggled } from '../../../lib/sets';
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
  // Deleting the last row of the last page, or a save that takes rows off the list, must not leave an empty page past the end.
  const lastPage = Math.max(0, Math.ceil(visible.length / pageSize) - 1);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);
  const shownPage = Math.min(page, lastPage);
  return {
    pageRows: visible.slice(shownPage * pageSize, shownPage * pageSize + pageSize),
    search: {
      value: search,
      onChange: (value: string) => {
        setSearch(value);
        setPage(0);
      },
      onSearch: () => setPage(0),
    },
    pagination: { total: visible.length, page: shownPage, pageSize, onPageChange: setPage, onPageSizeChange: setPageSize },
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

interface SelectableModelCellsProps {
  model: string;
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The model's checkbox, `${testIdPrefix}${model}`. */
  testIdPrefix: string;
  disabled?: boolean;
}

/** The first two cells of a model row in a table whose rows are picked: its checkbox and its name. */
export function SelectableModelCells({ model, selected, onChange, testIdPrefix, disabled }: SelectableModelCellsProps) {
  return (
    <>
      <TableCell padding="checkbox">
        <Checkbox
          size="small"
          disabled={disabled}
          checked={selected.has(model)}
          onChange={() => onChange(withToggled(selected, model))}
          slotProps={{ input: { 'aria-label': model } }}
          data-testid={`${testIdPrefix}${model}`}
        />
      </TableCell>
      <TableCell sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{model}</TableCell>
    </>
  );
}
