import { Box, LinearProgress, TableCell, TableRow } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A thin progress bar above a table while it loads; an equally tall gap otherwise, so the table does not jump. */
export function TableLoadingBar({ loading }: { loading: boolean }) {
  return loading ? <LinearProgress /> : <Box sx={{ height: 4 }} />;
}

/** The "nothing here" row of an empty table, spanning all `colSpan` columns. */
export function EmptyTableRow({ colSpan }: { colSpan: number }) {
  const { t } = useTranslation();
  return (
    <TableRow>
      <TableCell colSpan={colSpan} align="center" sx={{ py: 6, color: 'text.secondary' }}>
        {t('common:empty')}
      </TableCell>
    </TableRow>
  );
}
