import { TablePagination } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage';

export const PAGE_SIZES = [10, 20, 50, 100];

function storedPageSize(): number {
  const stored = Number(localStorage.getItem(StorageKey.pageSize));
  return PAGE_SIZES.includes(stored) ? stored : PAGE_SIZES[0];
}

/** Zero-based page and a page size remembered under `page-size`, shared by every paged table. */
export function usePaging() {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSizeState] = useState(storedPageSize);
  const setPageSize = (size: number) => {
    localStorage.setItem(StorageKey.pageSize, String(size));
    setPageSizeState(size);
    setPage(0);
  };
  return { page, setPage, pageSize, setPageSize };
}

export interface PagedTablePaginationProps {
  total: number;
  /** The server stopped counting at `total`: shown as "10000+". */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
}

/** The table footer: page navigation and the 10/20/50/100 page-size choice. */
export function PagedTablePagination({ total, totalCapped = false, page, pageSize, onPageChange, onPageSizeChange }: PagedTablePaginationProps) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={total}
      page={total === 0 ? 0 : page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={PAGE_SIZES}
      onPageChange={(_, next) => onPageChange(next)}
      onRowsPerPageChange={(event) => onPageSizeChange(Number(event.target.value))}
      labelRowsPerPage={t('common:pagination.rowsPerPage')}
      getItemAriaLabel={(type) => t(`common:pagination.${type}`)}
      labelDisplayedRows={({ from, to, count }) => t('common:pagination.displayed', { from, to, count: totalCapped ? t('common:pagination.atLeast', { count }) : count })}
      data-testid="table-pagination"
      // On a narrow screen (a table inside a card on a phone) the arrows wrap to a second line instead of being cut off.
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' }, '& .MuiTablePagination-spacer': { flexBasis: 0 } }}
    />
  );
}
