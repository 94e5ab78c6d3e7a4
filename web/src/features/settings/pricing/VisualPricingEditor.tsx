import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { PagedTablePagination } from '../../../components/table/PagedTablePagination';
import { RowIconAction } from '../../../components/table/RowIconAction';
import { stickyActionsSx } from '../../../components/table/stickyColumn';
import { EmptyTableRow } from '../../../components/table/TableStatus';
import { mapsFromRows, rowsFromMaps, upsertRow, type PricingRow } from './pricingRows';
import { PricingToolbar, shownValue, useSearchedPage, type PricingTableProps } from './PricingTableParts';
import { PricingRowDialog } from './PricingRowDialog';

/** One table row per model with its fixed price and ratios: add, edit, delete, search and page; saved as the four maps. */
export function VisualPricingEditor({ maps, saving, onSave }: PricingTableProps) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<PricingRow[]>([]);
  const [dirty, setDirty] = useState(false);
  const [target, setTarget] = useState<PricingRow | 'add' | null>(null);

  // A save (or a reset, or a JSON edit elsewhere on the tab) hands down new maps: start again from them.
  useEffect(() => {
    setRows(maps ? rowsFromMaps(maps) : []);
    setDirty(false);
  }, [maps]);

  const { pageRows, search, pagination } = useSearchedPage(rows);
  const names = useMemo(() => new Set(rows.map((row) => row.name)), [rows]);

  function change(next: PricingRow[]) {
    setRows(next);
    setDirty(true);
  }

  if (!maps) return <Alert severity="warning">{t('settingsPricing:visual.invalidJson')}</Alert>;

  return (
    <Stack spacing={1.5}>
      <PricingToolbar search={search} searchTestId="pricing-visual-search">
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setTarget('add')} data-testid="pricing-visual-add">
          {t('settingsPricing:visual.add')}
        </Button>
        <Button variant="contained" disabled={!dirty || saving} onClick={() => onSave(mapsFromRows(rows))} data-testid="pricing-visual-save">
          {t('settingsPricing:visual.save')}
        </Button>
      </PricingToolbar>
      {dirty && (
        <Typography variant="body2" color="warning.main" data-testid="pricing-visual-unsaved">
          {t('settingsPricing:visual.unsaved')}
        </Typography>
      )}
      <TableContainer>
        <Table size="small" sx={{ minWidth: 640 }} data-testid="pricing-visual-table">
          <TableHead>
            <TableRow>
              <TableCell>{t('settingsPricing:columns.name')}</TableCell>
              <TableCell>{t('settingsPricing:columns.price')}</TableCell>
              <TableCell>{t('settingsPricing:columns.ratio')}</TableCell>
              <TableCell>{t('settingsPricing:columns.completionRatio')}</TableCell>
              <TableCell>{t('settingsPricing:columns.cacheRatio')}</TableCell>
              <TableCell align="right" sx={stickyActionsSx}>
                {t('settingsPricing:columns.actions')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {pageRows.map((row) => {
              const fixed = row.price !== undefined;
              return (
                <TableRow key={row.name} hover data-testid={`pricing-visual-row-${row.name}`}>
                  <TableCell sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{row.name}</TableCell>
                  <TableCell>{shownValue(row.price)}</TableCell>
                  {/* A fixed price makes the ratios unused: shown greyed out, not editable until the mode changes. */}
                  <TableCell sx={{ color: fixed ? 'text.disabled' : undefined }}>{fixed ? '-' : shownValue(row.ratio)}</TableCell>
                  <TableCell sx={{ color: fixed ? 'text.disabled' : undefined }}>{fixed ? '-' : shownValue(row.completionRatio)}</TableCell>
                  <TableCell sx={{ color: fixed ? 'text.disabled' : undefined }}>{fixed ? '-' : shownValue(row.cacheRatio)}</TableCell>
                  <TableCell align="right" sx={stickyActionsSx}>
                    <RowIconAction title={t('settingsPricing:visual.edit')} icon={EditOutlinedIcon} onClick={() => setTarget(row)} testId={`pricing-visual-edit-${row.name}`} />
                    <RowIconAction
                      title={t('settingsPricing:visual.delete')}
                      icon={DeleteOutlinedIcon}
                      color="error"
                      onClick={() => change(rows.filter((item) => item.name !== row.name))}
                      testId={`pricing-visual-delete-${row.name}`}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
            {pageRows.length === 0 && <EmptyTableRow colSpan={6} />}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination {...pagination} />
      <PricingRowDialog
        target={target}
        existingNames={names}
        onClose={() => setTarget(null)}
        onSubmit={(row) => {
          setTarget(null);
          change(upsertRow(rows, row));
        }}
      />
    </Stack>
  );
}
