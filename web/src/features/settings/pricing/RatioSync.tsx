import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Divider,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import CloudDownloadOutlinedIcon from '@mui/icons-material/CloudDownloadOutlined';
import { useTranslation } from 'react-i18next';
import type { RatioSyncDiff, RatioSyncField, RatioSyncFieldDiff, RatioSyncPick, RatioSyncRow, RatioSyncSource } from '@shared/ratio-sync/ratio-sync.wire';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PagedTablePagination } from '../../../components/table/PagedTablePagination';
import { SelectAllCheckbox } from '../../../components/table/SelectAllCheckbox';
import { EmptyTableRow, TableLoadingBar } from '../../../components/table/TableStatus';
import { withToggled } from '../../../lib/sets';
import { toast } from '../../../lib/toast';
import { useOptions } from '../OptionsProvider';
import { ratioSyncApi } from './api';
import { PricingToolbar, SelectableModelCells, useSearchedPage } from './PricingTableParts';
import { RatioSyncSources } from './RatioSyncSources';

const FIELDS: RatioSyncField[] = ['model_price', 'model_ratio', 'completion_ratio', 'cache_ratio', 'create_cache_ratio'];
type Filter = 'onlyChanged' | 'onlyNew' | 'onlyServed';
const FILTERS: Filter[] = ['onlyChanged', 'onlyNew', 'onlyServed'];
const STATUS_COLOR = { new: 'success', changed: 'warning', same: 'default' } as const;
const FIELD_COLOR: Record<RatioSyncFieldDiff['status'], string> = { added: 'success.main', changed: 'warning.main', removed: 'error.main', same: 'text.secondary' };

/** The diff view's filters, as the server's `only_*` flags read them. */
function passes(row: RatioSyncRow, filters: ReadonlySet<Filter>): boolean {
  return (!filters.has('onlyChanged') || row.status !== 'same') && (!filters.has('onlyNew') || row.status === 'new') && (!filters.has('onlyServed') || row.served);
}

/** What applying a row writes: the upstream value of each field that differs (null clears it). */
function pickOf(row: RatioSyncRow): RatioSyncPick {
  return { model: row.model, fields: Object.fromEntries(row.fields.filter((field) => field.status !== 'same').map((field) => [field.field, field.upstream])) };
}

const shown = (value: number | null) => (value === null ? '-' : String(value));

/** One field of a row: the value here → the source's, coloured by what applying would do. */
function FieldCell({ diff }: { diff: RatioSyncFieldDiff | undefined }) {
  if (!diff) return <TableCell sx={{ color: 'text.disabled' }}>-</TableCell>;
  return (
    <TableCell sx={{ color: FIELD_COLOR[diff.status], whiteSpace: 'nowrap' }} data-status={diff.status}>
      {diff.status === 'same' ? shown(diff.upstream ?? diff.current) : `${shown(diff.current)} → ${shown(diff.upstream)}`}
    </TableCell>
  );
}

/**
 * Ratio sync: pick a source, fetch and compare it with the price maps here, filter, tick the
 * models to take and apply them as one change. Fetching and comparing write nothing.
 */
export function RatioSync() {
  const { t } = useTranslation();
  const options = useOptions();
  const [sources, setSources] = useState<RatioSyncSource[]>([]);
  const [chosen, setChosen] = useState('');
  const [diff, setDiff] = useState<RatioSyncDiff | null>(null);
  const [loading, setLoading] = useState(false);
  const [filters, setFilters] = useState<ReadonlySet<Filter>>(new Set(['onlyChanged']));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [applying, setApplying] = useState(false);

  useEffect(() => {
    void ratioSyncApi.sources().then((result) => {
      if (result.ok) setSources(result.data);
    });
  }, []);
  // A source that was removed cannot stay chosen.
  const source = sources.some((item) => item.name === chosen) ? chosen : (sources[0]?.name ?? '');

  const rows = useMemo(() => (diff?.rows ?? []).filter((row) => passes(row, filters)).map((row) => ({ ...row, name: row.model })), [diff, filters]);
  const { pageRows, search, pagination } = useSearchedPage(rows);
  const selectableOnPage = pageRows.filter((row) => row.status !== 'same').map((row) => row.model);
  const picks = (diff?.rows ?? []).filter((row) => selected.has(row.model) && row.status !== 'same').map(pickOf);

  async function fetchDiff(name = source) {
    if (!name) return;
    setLoading(true);
    const result = await ratioSyncApi.diff(name);
    setLoading(false);
    setSelected(new Set());
    setDiff(result.ok ? result.data : null);
  }

  async function apply() {
    setConfirming(false);
    setApplying(true);
    const result = await ratioSyncApi.apply({ source: diff?.source ?? source, rows: picks });
    setApplying(false);
    if (!result.ok) return;
    // The other sub-tabs read the maps from the options (the whole settings page renders again: toast after it); then the diff shows what is left.
    await options.refresh();
    toast.success(result.message);
    await fetchDiff(diff?.source ?? source);
  }

  const toggleFilter = (filter: Filter) => setFilters((previous) => withToggled(previous, filter));

  return (
    <Stack spacing={2} data-testid="ratio-sync">
      <Typography variant="body2" color="text.secondary">
        {t('settingsPricing:sync.hint')}
      </Typography>
      <Typography variant="subtitle1" component="h3">
        {t('settingsPricing:sync.sources')}
      </Typography>
      <RatioSyncSources sources={sources} onChange={setSources} />
      <Divider />
      <Typography variant="subtitle1" component="h3">
        {t('settingsPricing:sync.compare')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label={t('settingsPricing:sync.source')}
          value={source}
          onChange={(event) => setChosen(event.target.value)}
          disabled={sources.length === 0}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'ratio-sync-source-select' } }}
        >
          {sources.map((item) => (
            <MenuItem key={item.name} value={item.name}>
              {item.name}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" startIcon={<CloudDownloadOutlinedIcon />} disabled={!source || loading} onClick={() => void fetchDiff()} data-testid="ratio-sync-fetch" sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
          {t('settingsPricing:sync.fetch')}
        </Button>
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        {FILTERS.map((filter) => (
          <FormControlLabel
            key={filter}
            control={<Switch size="small" checked={filters.has(filter)} onChange={() => toggleFilter(filter)} data-testid={`ratio-sync-filter-${filter}`} />}
            label={t(`settingsPricing:sync.filters.${filter}`)}
          />
        ))}
      </Stack>
      {diff && (
        <Alert severity="info" data-testid="ratio-sync-summary">
          {t('settingsPricing:sync.summary', { source: diff.source, format: t(`settingsPricing:sync.formats.${diff.format}`), count: diff.upstream_models, shown: rows.length })}
          {diff.skipped.length > 0 && (
            <Box component="span" sx={{ display: 'block' }} data-testid="ratio-sync-skipped">
              {t('settingsPricing:sync.skipped', {
                count: diff.skipped.length,
                models: diff.skipped
                  .slice(0, 10)
                  .map((item) => `${item.model} (${t(`settingsPricing:sync.skipReasons.${item.reason}`)})`)
                  .join(', '),
              })}
            </Box>
          )}
        </Alert>
      )}
      <PricingToolbar search={search} searchTestId="ratio-sync-search">
        <Button variant="contained" color="warning" disabled={picks.length === 0 || applying} onClick={() => setConfirming(true)} data-testid="ratio-sync-apply">
          {t('settingsPricing:sync.apply', { count: picks.length })}
        </Button>
      </PricingToolbar>
      <TableLoadingBar loading={loading} />
      <TableContainer>
        <Table size="small" sx={{ minWidth: 860 }} data-testid="ratio-sync-table">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <SelectAllCheckbox ids={selectableOnPage} selected={selected} onChange={setSelected} label={t('settingsPricing:unpriced.selectPage')} testId="ratio-sync-select-page" keepOffScreen />
              </TableCell>
              <TableCell>{t('settingsPricing:columns.name')}</TableCell>
              <TableCell>{t('settingsPricing:sync.status')}</TableCell>
              {FIELDS.map((field) => (
                <TableCell key={field}>{t(`settingsPricing:sync.fields.${field}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {pageRows.map((row) => (
              <TableRow key={row.model} hover data-testid={`ratio-sync-row-${row.model}`}>
                <SelectableModelCells model={row.model} selected={selected} onChange={setSelected} testIdPrefix="ratio-sync-select-" disabled={row.status === 'same'} />
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Chip size="small" color={STATUS_COLOR[row.status]} label={t(`settingsPricing:sync.statuses.${row.status}`)} />
                  {row.served && <Chip size="small" variant="outlined" label={t('settingsPricing:sync.served')} sx={{ ml: 0.5 }} />}
                </TableCell>
                {FIELDS.map((field) => (
                  <FieldCell key={field} diff={row.fields.find((item) => item.field === field)} />
                ))}
              </TableRow>
            ))}
            {!loading && pageRows.length === 0 && <EmptyTableRow colSpan={3 + FIELDS.length} />}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination {...pagination} />
      <ConfirmDialog
        open={confirming}
        title={t('settingsPricing:sync.confirmTitle', { count: picks.length })}
        message={t('settingsPricing:sync.confirmMessage', { source: diff?.source ?? source })}
        confirmLabel={t('settingsPricing:sync.confirm')}
        onClose={() => setConfirming(false)}
        onConfirm={() => void apply()}
      />
    </Stack>
  );
}
