import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormTextField } from '../../../components/form/FormTextField';
import { PagedTablePagination } from '../../../components/table/PagedTablePagination';
import { SelectAllCheckbox } from '../../../components/table/SelectAllCheckbox';
import { EmptyTableRow, TableLoadingBar } from '../../../components/table/TableStatus';
import { toast } from '../../../lib/toast';
import { pricingSettingsApi } from './api';
import { applyRows, batchFill, isUnpriced, parseNumberInput, type BatchFillMode, type PricingRow } from './pricingRows';
import { PricingToolbar, SelectableModelCells, shownValue, useSearchedPage, type PricingTableProps } from './PricingTableParts';

const FILL_MODES: BatchFillMode[] = ['price', 'ratio', 'completionRatio', 'bothRatio'];

/** Models some enabled channel serves that have neither a price nor a ratio; select some, batch-fill, save. */
export function UnpricedModels({ maps, saving, onSave }: PricingTableProps) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState<string[]>([]);
  const [loading, setLoading] = useState(true);
  /** Values filled in but not saved yet, by model name. */
  const [filled, setFilled] = useState<Map<string, PricingRow>>(new Map());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [batchOpen, setBatchOpen] = useState(false);

  const loadEnabled = useCallback(async () => {
    setLoading(true);
    const result = await pricingSettingsApi.enabledModels();
    setLoading(false);
    if (result.ok) setEnabled(result.data ?? []);
    else toast.error(t('settingsPricing:unpriced.fetchFailed'));
  }, [t]);

  useEffect(() => {
    void loadEnabled();
  }, [loadEnabled]);

  // After a save the filled models are priced and leave the list.
  useEffect(() => {
    setFilled(new Map());
    setSelected(new Set());
  }, [maps]);

  const rows = useMemo(() => (maps ? enabled.filter((name) => isUnpriced(maps, name)).map((name) => filled.get(name) ?? { name }) : []), [enabled, maps, filled]);
  const { pageRows, search, pagination } = useSearchedPage(rows);
  const pageNames = pageRows.map((row) => row.name);

  function openBatch() {
    if (selected.size === 0) {
      toast.warning(t('settingsPricing:unpriced.selectFirst'));
      return;
    }
    setBatchOpen(true);
  }

  if (!maps) return <Alert severity="warning">{t('settingsPricing:visual.invalidJson')}</Alert>;

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('settingsPricing:unpriced.hint')}
      </Typography>
      <PricingToolbar search={search} searchTestId="pricing-unpriced-search">
        <Button variant="outlined" onClick={openBatch} data-testid="pricing-unpriced-batch">
          {t('settingsPricing:unpriced.batch', { count: selected.size })}
        </Button>
        <Button variant="contained" disabled={filled.size === 0 || saving} onClick={() => onSave(applyRows(maps, [...filled.values()]))} data-testid="pricing-unpriced-save">
          {t('settingsPricing:unpriced.save', { count: filled.size })}
        </Button>
      </PricingToolbar>
      <TableLoadingBar loading={loading} />
      <TableContainer>
        <Table size="small" sx={{ minWidth: 520 }} data-testid="pricing-unpriced-table">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <SelectAllCheckbox ids={pageNames} selected={selected} onChange={setSelected} label={t('settingsPricing:unpriced.selectPage')} testId="pricing-unpriced-select-page" />
              </TableCell>
              <TableCell>{t('settingsPricing:columns.name')}</TableCell>
              <TableCell>{t('settingsPricing:columns.price')}</TableCell>
              <TableCell>{t('settingsPricing:columns.ratio')}</TableCell>
              <TableCell>{t('settingsPricing:columns.completionRatio')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {pageRows.map((row) => (
              <TableRow key={row.name} hover data-testid={`pricing-unpriced-row-${row.name}`}>
                <SelectableModelCells model={row.name} selected={selected} onChange={setSelected} testIdPrefix="pricing-unpriced-select-" />
                <TableCell>{shownValue(row.price)}</TableCell>
                <TableCell>{shownValue(row.ratio)}</TableCell>
                <TableCell>{shownValue(row.completionRatio)}</TableCell>
              </TableRow>
            ))}
            {!loading && pageRows.length === 0 && <EmptyTableRow colSpan={5} />}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination {...pagination} />
      <BatchFillDialog
        open={batchOpen}
        count={selected.size}
        onClose={() => setBatchOpen(false)}
        onApply={(mode, first, second) => {
          setBatchOpen(false);
          const next = new Map(filled);
          for (const row of batchFill([...selected], filled, mode, first, second)) next.set(row.name, row);
          setFilled(next);
        }}
      />
    </Stack>
  );
}

interface BatchFillDialogProps {
  open: boolean;
  count: number;
  onClose: () => void;
  onApply: (mode: BatchFillMode, first: number, second?: number) => void;
}

interface BatchForm {
  mode: BatchFillMode;
  first: string;
  second: string;
}

/** A typed fill value: required, a number, and for a fixed price not 0. */
function fillValueRule(mode: BatchFillMode, input: string): true | string {
  const parsed = parseNumberInput(input);
  if (!parsed.ok || parsed.value === undefined) return mode === 'bothRatio' ? 'settingsPricing:errors.bothNumbers' : 'settingsPricing:errors.notNumber';
  if (mode === 'price' && parsed.value === 0) return 'settingsPricing:errors.zeroPrice';
  return true;
}

/** Picks what to fill (fixed price, model ratio, completion ratio or both ratios) and the value(s). */
function BatchFillDialog({ open, count, onClose, onApply }: BatchFillDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const { control, handleSubmit, clearErrors, getValues } = useForm<BatchForm>({ defaultValues: { mode: 'ratio', first: '', second: '' } });
  const mode = useWatch({ control, name: 'mode' });

  // Errors from the last time the dialog was open would be stale.
  useEffect(() => {
    if (open) clearErrors();
  }, [open, clearErrors]);

  const submit = handleSubmit(({ mode: chosen, first, second }) => {
    const value = (input: string) => Number(input.trim());
    onApply(chosen, value(first), chosen === 'bothRatio' ? value(second) : undefined);
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} data-testid="pricing-batch-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('settingsPricing:unpriced.batchTitle', { count })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormSelect control={control} name="mode" label={t('settingsPricing:unpriced.fillMode')} choices={FILL_MODES.map((item) => ({ value: item, label: t(`settingsPricing:unpriced.modes.${item}`) }))} />
            <FormTextField
              control={control}
              name="first"
              label={mode === 'bothRatio' ? t('settingsPricing:columns.ratio') : t('settingsPricing:unpriced.fillValue')}
              rules={{ validate: (input: string) => fillValueRule(getValues('mode'), input) }}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-batch-value' } }}
            />
            {mode === 'bothRatio' && (
              <FormTextField
                control={control}
                name="second"
                label={t('settingsPricing:columns.completionRatio')}
                rules={{ validate: (input: string) => fillValueRule('bothRatio', input) }}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-batch-second' } }}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" data-testid="pricing-batch-apply">
            {t('settingsPricing:unpriced.apply')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
