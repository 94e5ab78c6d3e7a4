import type { ComponentProps, ReactNode } from 'react';
import { Card, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type SxProps, type Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { durationColor } from './api';

export type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
export const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** One column of a task log: its header (tasks:columns.<key>) and how a row fills its cell. */
export interface TaskColumn<Row> {
  key: string;
  render: (row: Row) => ReactNode;
  /** Shown to admins only (the channel). */
  adminOnly?: boolean;
  sx?: SxProps<Theme>;
}

interface TaskTableProps<Row extends { id: number }> {
  columns: TaskColumn<Row>[];
  rows: Row[];
  loading: boolean;
  admin: boolean;
  pagination: ComponentProps<typeof PagedTablePagination>;
  minWidth: number;
  /** The table's test id; each row's is `<rowTestId>-<id>`. */
  testId: string;
  rowTestId: string;
}

/** The table both task logs (drawings and tasks) show: loading bar, headers, rows, empty state and paging. */
export function TaskTable<Row extends { id: number }>({ columns, rows, loading, admin, pagination, minWidth, testId, rowTestId }: TaskTableProps<Row>) {
  const { t } = useTranslation();
  const shown = columns.filter((column) => admin || !column.adminOnly);
  return (
    <Card>
      <TableLoadingBar loading={loading} />
      <TableContainer>
        <Table size="small" sx={{ minWidth, '& td, & th': { px: 1.25 } }} data-testid={testId}>
          <TableHead>
            <TableRow>
              {shown.map((column) => (
                <TableCell key={column.key} sx={{ whiteSpace: 'nowrap' }}>
                  {t(`tasks:columns.${column.key}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow hover key={row.id} data-testid={`${rowTestId}-${row.id}`}>
                {shown.map((column) => (
                  <TableCell key={column.key} sx={column.sx}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {!loading && rows.length === 0 && <EmptyTableRow colSpan={shown.length} />}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination {...pagination} />
    </Card>
  );
}

/** Time taken as a chip (green up to 60 s, red above), or a dash while unfinished. */
export function DurationChip({ seconds, testId }: { seconds: number; testId?: string }) {
  const { t } = useTranslation();
  if (seconds <= 0) return '-';
  return <Chip size="small" variant="outlined" color={durationColor(seconds)} label={t('tasks:seconds', { value: seconds })} data-testid={testId} />;
}

/** The task's channel id (admins only); a click copies it. */
export function ChannelChip({ channelId, testId }: { channelId: number; testId: string }) {
  const copy = useCopy();
  return <Chip size="small" label={channelId} onClick={() => void copy(String(channelId))} data-testid={testId} />;
}
