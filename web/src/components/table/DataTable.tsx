import type { ReactNode } from 'react';
import { Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type SxProps, type Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { withToggled } from '../../lib/sets';
import type { ColumnOption } from './ColumnsMenu';
import { PagedTablePagination, type PagedTablePaginationProps } from './PagedTablePagination';
import { SelectAllCheckbox } from './SelectAllCheckbox';
import { stickyActionsSx } from './stickyColumn';
import { EmptyTableRow, TableLoadingBar } from './TableStatus';

/** `data-*` attributes put on a cell, for test ids and state flags. */
export type DataAttributes = { [attribute: `data-${string}`]: string | number | boolean | undefined };

/** One style object (or theme function) for a cell: not an array, so that it can join the column's own styles. */
export type CellStyle = Exclude<SxProps<Theme>, readonly unknown[]>;

/** One column of a {@link DataTable}. */
export interface DataTableColumn<Row> {
  /** Stable id: the React key, and the key the ColumnsMenu remembers. */
  key: string;
  /** i18n key of the header text. */
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** Pinned to the right edge while a wide table scrolls sideways (the row actions). */
  sticky?: boolean;
  /** Left out below the `sm` breakpoint, where the table would otherwise scroll. */
  hideOnPhone?: boolean;
  /** Listed in the ColumnsMenu, so the user may hide it (see `isColumnVisible`). */
  optional?: boolean;
  /** Extra style for this column's body cells. */
  cellSx?: CellStyle;
  cellData?: (row: Row) => DataAttributes;
}

/** Checkboxes in the first column, and one in the header for the rows on screen. */
export interface DataTableSelection<Row, Id extends number | string> {
  selected: Set<Id>;
  onChange: (next: Set<Id>) => void;
  /** Translated label of the header checkbox. */
  selectAllLabel: string;
  /** Translated label of a row's checkbox. */
  rowLabel: (row: Row) => string;
  rowTestId?: (row: Row) => string;
  /** See SelectAllCheckbox: the selection outlives paging and filtering. */
  keepOffScreen?: boolean;
}

interface DataTableProps<Row, Id extends number | string> {
  columns: DataTableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => Id;
  loading: boolean;
  /** The table scrolls sideways below this width. */
  minWidth: number;
  /** Tighter horizontal cell padding, for tables with many columns. */
  dense?: boolean;
  testId?: string;
  rowTestId?: (row: Row) => string;
  rowSx?: (row: Row) => SxProps<Theme> | undefined;
  selection?: DataTableSelection<Row, Id>;
  /** Hides the optional columns the user switched off in the ColumnsMenu. */
  isColumnVisible?: (key: string) => boolean;
  /** The footer; left out for a table that is not paged. */
  pagination?: PagedTablePaginationProps;
}

const hideOnPhoneSx = { display: { xs: 'none', sm: 'table-cell' } } satisfies CellStyle;

/** The styles a column gives to its header cell; its body cells add `cellSx`. */
function columnStyles<Row>(column: DataTableColumn<Row>): (false | CellStyle)[] {
  return [!!column.sticky && stickyActionsSx, !!column.hideOnPhone && hideOnPhoneSx, column.width !== undefined && { width: column.width }];
}

/** The ColumnsMenu entries for a table's optional columns. */
export function columnOptions<Row>(columns: DataTableColumn<Row>[], translate: (key: string) => string): ColumnOption[] {
  return columns.filter((column) => column.optional).map((column) => ({ key: column.key, label: translate(column.header) }));
}

/**
 * A list page's table from column definitions: the loading bar, the header, one row per item with
 * optional selection checkboxes, the "nothing here" row, and the pagination footer.
 */
export function DataTable<Row, Id extends number | string>({
  columns,
  rows,
  rowKey,
  loading,
  minWidth,
  dense,
  testId,
  rowTestId,
  rowSx,
  selection,
  isColumnVisible,
  pagination,
}: DataTableProps<Row, Id>) {
  const { t } = useTranslation();
  const shown = columns.filter((column) => !column.optional || !isColumnVisible || isColumnVisible(column.key));
  const colSpan = shown.length + (selection ? 1 : 0);
  return (
    <>
      <TableLoadingBar loading={loading} />
      <TableContainer>
        <Table size="small" sx={[{ minWidth }, !!dense && { '& td, & th': { px: 1.25 } }]} data-testid={testId}>
          <TableHead>
            <TableRow>
              {selection && (
                <TableCell padding="checkbox">
                  <SelectAllCheckbox
                    ids={rows.map(rowKey)}
                    selected={selection.selected}
                    onChange={selection.onChange}
                    label={selection.selectAllLabel}
                    keepOffScreen={selection.keepOffScreen}
                  />
                </TableCell>
              )}
              {shown.map((column) => (
                <TableCell key={column.key} align={column.align} sx={columnStyles(column)}>
                  {t(column.header)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const id = rowKey(row);
              return (
                <TableRow key={id} hover data-testid={rowTestId?.(row)} sx={rowSx?.(row)}>
                  {selection && (
                    <TableCell padding="checkbox">
                      <Checkbox
                        size="small"
                        checked={selection.selected.has(id)}
                        onChange={() => selection.onChange(withToggled(selection.selected, id))}
                        slotProps={{ input: { 'aria-label': selection.rowLabel(row) } }}
                        data-testid={selection.rowTestId?.(row)}
                      />
                    </TableCell>
                  )}
                  {shown.map((column) => (
                    <TableCell key={column.key} align={column.align} sx={[...columnStyles(column), column.cellSx ?? false]} {...column.cellData?.(row)}>
                      {column.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
            {!loading && rows.length === 0 && <EmptyTableRow colSpan={colSpan} />}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination && <PagedTablePagination {...pagination} />}
    </>
  );
}
